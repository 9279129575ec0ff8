# An ErrorModule Fid on a link (as ns-2's TCP test suites insert their drop lists): an
# ErrorModel/List bound to flow id 1 drops that flow's packets 3 and 7 (counted from 0) on
# n1->n2; the CBR of flow id 2 beside it passes, and so does a Reno flow's data (flow id 3).
# The queue is long enough that nothing else is dropped.
set ns [new Simulator]
set tf [open errormodule.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1Mb 10ms DropTail
$ns queue-limit $n1 $n2 100
set em [new ErrorModule Fid]
set list [new ErrorModel/List]
$list droplist {3 7}
[$ns link $n1 $n2] errormodule $em
$em insert $list
$em bind $list 1
$em default pass
foreach fid {1 2} rate {200Kb 300Kb} start {0.1 0.1013} {
    set udp [new Agent/UDP]
    $udp set fid_ $fid
    $ns attach-agent $n0 $udp
    set null [new Agent/Null]
    $ns attach-agent $n2 $null
    $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]
    $cbr set rate_ $rate
    $cbr attach-agent $udp
    $ns at $start "$cbr start"
}
set tcp [$ns create-connection TCP/Reno $n0 TCPSink $n2 3]
set ftp [$tcp attach-app FTP]
$ns at 0.2 "$ftp start"
$ns at 1.0 "close $tf; exit 0"
$ns run
