# ns-2.35 twin of pause.toml (written for nsim, no ns-2 code): a dumbbell s1,s2 - r1 - r2 - d
# (r1-r2 1.5 Mb/s, 10 ms, 20 packets). One Agent/TCP/Reno with FTP from s1 and one CBR over
# UDP from s2, both to d; at 2 s both applications stop (`$ftp stop`, `$cbr stop`), at 3 s
# both start again. Node ids: hosts, then routers, in declaration order (as nsim numbers
# them). Usage: ns pause.tcl OUT.tr
set ns [new Simulator]
set out [lindex $argv 0]
set tf [open $out w]
$ns trace-all $tf
foreach name {s1 s2 d r1 r2} { set n($name) [$ns node] }
proc link {a b rate delay} {
    global ns n
    $ns duplex-link $n($a) $n($b) $rate $delay DropTail
    $ns queue-limit $n($a) $n($b) 20
    $ns queue-limit $n($b) $n($a) 20
}
link s1 r1 10Mb 2ms
link s2 r1 10Mb 2ms
link r1 r2 1.5Mb 10ms
link r2 d 10Mb 2ms
set tcp [new Agent/TCP/Reno]
$tcp set fid_ 0
$tcp set window_ 20
$tcp set packetSize_ 1000
set snk [new Agent/TCPSink]
$ns attach-agent $n(s1) $tcp
$ns attach-agent $n(d) $snk
$ns connect $tcp $snk
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$udp set fid_ 1
set null [new Agent/Null]
$ns attach-agent $n(s2) $udp
$ns attach-agent $n(d) $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set rate_ 400kb
$cbr attach-agent $udp
$ns at 0.0 "$ftp start"
$ns at 0.0 "$cbr start"
$ns at 2.0 "$ftp stop"
$ns at 2.0 "$cbr stop"
$ns at 3.0 "$ftp start"
$ns at 3.0 "$cbr start"
$ns at 5.0 "close $tf; exit 0"
$ns run
