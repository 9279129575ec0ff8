# ns-2.35 twin of failover.toml (written for nsim, no ns-2 code): a two-path failover and a
# rate step. s - r1 - r2 - d with a longer way r1 - r3 - r2; r1-r2 fails at 1 s and is
# repaired at 2 s (rtmodel-at, Session routing); r1->r2 drops to 0.75 Mb/s at 3 s. One
# Agent/TCP/Reno (FTP) and one CBR over UDP, s -> d. Node ids: hosts, then routers, in
# declaration order (as nsim numbers them). Usage: ns failover.tcl OUT.tr
set ns [new Simulator]
set out [lindex $argv 0]
$ns rtproto Session
set tf [open $out w]
$ns trace-all $tf
foreach name {s d r1 r2 r3} { set n($name) [$ns node] }
proc link {a b rate delay} {
    global ns n
    $ns duplex-link $n($a) $n($b) $rate $delay DropTail
    $ns queue-limit $n($a) $n($b) 20
    $ns queue-limit $n($b) $n($a) 20
}
link s r1 10Mb 2ms
link r1 r2 1.5Mb 10ms
link r2 d 10Mb 2ms
link r1 r3 1.5Mb 10ms
link r3 r2 1.5Mb 10ms
set tcp [new Agent/TCP/Reno]
$tcp set fid_ 0
$tcp set window_ 20
$tcp set packetSize_ 1000
set snk [new Agent/TCPSink]
$ns attach-agent $n(s) $tcp
$ns attach-agent $n(d) $snk
$ns connect $tcp $snk
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$udp set fid_ 1
set null [new Agent/Null]
$ns attach-agent $n(s) $udp
$ns attach-agent $n(d) $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set rate_ 400kb
$cbr attach-agent $udp
$ns at 0.0 "$ftp start"
$ns at 0.0 "$cbr start"
$ns rtmodel-at 1.0 down $n(r1) $n(r2)
$ns rtmodel-at 2.0 up $n(r1) $n(r2)
$ns at 3.0 "[[$ns link $n(r1) $n(r2)] link] set bandwidth_ 0.75Mb"
$ns at 5.0 "close $tf; exit 0"
$ns run
