# What ns-2.35 does to a FullTcp FTP that is stopped and started again (written for nsim, no
# ns-2 code), for docs/models/dynamics.md "Flows that pause and resume": s -(10 Mb/s, 1 ms)-
# r -(2 Mb/s, 10 ms, 50 packets)- d, one Agent/TCP/FullTcp with FTP from s to d; at 1 s
# either `$ftp stop` (MODE stop: advance 0 then close) or `$tcp advance 0` (MODE advance), at
# 2 s `$ftp start`. Usage: ns fulltcp_stop.tcl OUT.tr MODE. Read the trace with
#   awk '$1=="+" && $3==0 && $2>0.999' OUT.tr
# stop: a 40 B FIN at 1 s at the end of the data, the ACK of the peer's FIN, one SYN at 2 s,
# no data after 1 s. advance: data keeps leaving at 43-44 segments per 100 ms throughout.
set ns [new Simulator]
set tf [open [lindex $argv 0] w]
set mode [lindex $argv 1]
$ns trace-all $tf
foreach name {s d r} { set n($name) [$ns node] }
$ns duplex-link $n(s) $n(r) 10Mb 1ms DropTail
$ns duplex-link $n(r) $n(d) 2Mb 10ms DropTail
$ns queue-limit $n(r) $n(d) 50
set tcp [new Agent/TCP/FullTcp]
set sink [new Agent/TCP/FullTcp]
$tcp set fid_ 0
$sink set fid_ 0
$ns attach-agent $n(s) $tcp
$ns attach-agent $n(d) $sink
$ns connect $tcp $sink
$sink listen
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"
if {$mode == "stop"} {
    $ns at 1.0 "$ftp stop"
} else {
    $ns at 1.0 "$tcp advance 0"
}
$ns at 2.0 "$ftp start"
$ns at 3.0 "close $tf; exit 0"
$ns run
