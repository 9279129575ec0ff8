# A queue monitor on a bottleneck that drops (`$ns monitor-queue`): a procedure prints its
# counters and both integrators every 0.25 s, and resets them at 1 s (nsim steps the run live).
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 10Mb 3ms DropTail
$ns duplex-link $n2 $n3 1Mb 20ms DropTail
$ns queue-limit $n2 $n3 10
set tcp [new Agent/TCP/Reno]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n3 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
set udp [new Agent/UDP]
$ns attach-agent $n1 $udp
set null [new Agent/Null]
$ns attach-agent $n3 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set rate_ 400Kb
$cbr set packetSize_ 500
$cbr attach-agent $udp
set qmon [$ns monitor-queue $n2 $n3 ""]
set bint [$qmon get-bytes-integrator]
set pint [$qmon get-pkts-integrator]
set f [open queue_monitor.txt w]
proc sample {} {
    global ns qmon bint pint f
    set row [$ns now]
    foreach v {pkts_ size_ parrivals_ barrivals_ pdepartures_ bdepartures_ pdrops_ bdrops_} {
        lappend row [$qmon set $v]
    }
    lappend row [$bint set sum_] [$pint set sum_]
    puts $f $row
    $ns at [expr {[$ns now] + 0.25}] sample
}
$ns at 0.0 sample
$ns at 1.0 "$qmon reset"
$ns at 0.1 "$ftp start"
$ns at 0.3 "$cbr start"
$ns at 2.6 "close $f; exit 0"
$ns run
