# Three TCPs (Tahoe, NewReno, Sack1) through a RED bottleneck in packet mode, not gentle, with
# an early-drop probability near zero (linterm_ 1e9): every drop is a forced one (average
# queue above maxthresh_), so the run has no random draw and both simulators must agree
# packet for packet on RED's average queue estimator. minrto_ 1 s keeps every retransmission
# timeout at its floor, where ns-2's random tick phase of each agent (boot_time_) plays no part.
set ns [new Simulator]
set tf [open red_forced.tr w]
$ns trace-all $tf

Agent/TCP set minrto_ 1
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set gentle_ false
Queue/RED set thresh_ 3
Queue/RED set maxthresh_ 6
Queue/RED set q_weight_ 0.02
Queue/RED set linterm_ 1000000000

for {set i 0} {$i < 3} {incr i} { set s($i) [$ns node] }
set r0 [$ns node]
set r1 [$ns node]
set d [$ns node]
for {set i 0} {$i < 3} {incr i} {
    $ns duplex-link $s($i) $r0 10Mb [expr {2 + 3 * $i}]ms DropTail
}
$ns duplex-link $r0 $r1 1Mb 15ms RED
$ns duplex-link $r1 $d 10Mb 1ms DropTail
$ns queue-limit $r0 $r1 30

set kinds {Agent/TCP Agent/TCP/Newreno Agent/TCP/Sack1}
set sinks {Agent/TCPSink Agent/TCPSink Agent/TCPSink/Sack1}
for {set i 0} {$i < 3} {incr i} {
    set tcp($i) [new [lindex $kinds $i]]
    $tcp($i) set fid_ [expr {$i + 1}]
    $ns attach-agent $s($i) $tcp($i)
    set sink($i) [new [lindex $sinks $i]]
    $ns attach-agent $d $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [$tcp($i) attach-app FTP]
    $ns at [expr {0.2 * $i}] "$ftp($i) start"
}

proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    exit 0
}
$ns at 6.0 "finish"
$ns run
