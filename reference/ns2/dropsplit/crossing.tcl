# ns-2.35 twin of crossing.toml (written for nsim, no ns-2 code): one DropTail bottleneck fed
# by bulk NewReno flows both ways. Usage: ns crossing.tcl OUT.tr  (traces both bottleneck
# directions with trace-queue).
set ns [new Simulator]
set out [lindex $argv 0]
Agent/TCP set window_ 64
set n(s0) [$ns node]; set n(s1) [$ns node]; set n(s2) [$ns node]
set n(d0) [$ns node]; set n(d1) [$ns node]; set n(d2) [$ns node]
set n(L) [$ns node]; set n(R) [$ns node]
proc link {a b rate delay limit} {
    global ns n
    $ns duplex-link $n($a) $n($b) $rate $delay DropTail
    $ns queue-limit $n($a) $n($b) $limit
    $ns queue-limit $n($b) $n($a) $limit
}
link L R 10Mb 5ms 20
link s0 L 45Mb 1ms 100
link s1 L 45Mb 3ms 100
link s2 L 45Mb 7ms 100
link d0 R 45Mb 2ms 100
link d1 R 45Mb 4ms 100
link d2 R 45Mb 11ms 100
set tf [open $out w]
$ns trace-queue $n(L) $n(R) $tf
$ns trace-queue $n(R) $n(L) $tf
set fid 0
foreach {name from to start} {f0 s0 d0 0 f1 s1 d1 0.013 f2 s2 d2 0.029 r0 d0 s0 0.005 r1 d1 s1 0.017 r2 d2 s2 0.041} {
    set tcp [new Agent/TCP/Newreno]
    $tcp set fid_ $fid
    incr fid
    set snk [new Agent/TCPSink]
    $ns attach-agent $n($from) $tcp
    $ns attach-agent $n($to) $snk
    $ns connect $tcp $snk
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at $start "$ftp start"
}
$ns at 5.0 "close $tf; exit 0"
$ns run
