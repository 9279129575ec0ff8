# An ns-2 script as course labs hand them out, run unchanged by `nsim run scenarios/ns2_dumbbell.tcl`
# (docs/guide/ns2-scripts.md): a TCP Reno FTP flow and a CBR flow share a 1.5 Mb/s DropTail
# bottleneck. Writes ns2_dumbbell.tr (ns-2 trace of every link) and ns2_dumbbell.cwnd (the Reno
# flow's cwnd_) in the working directory; `exec xgraph` is not run (a notice says so).
set ns [new Simulator]
set tf [open ns2_dumbbell.tr w]
$ns trace-all $tf
set nf [open ns2_dumbbell.nam w]
$ns namtrace-all $nf
set cf [open ns2_dumbbell.cwnd w]

set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 10Mb 2ms DropTail
$ns duplex-link $n2 $n3 1.5Mb 20ms DropTail
$ns queue-limit $n2 $n3 20
$ns duplex-link-op $n2 $n3 orient right

Agent/TCP set window_ 32
set tcp [new Agent/TCP/Reno]
$tcp set fid_ 1
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n3 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$tcp attach $cf
$tcp trace cwnd_

set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $n1 $udp
set null [new Agent/Null]
$ns attach-agent $n3 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set rate_ 0.5Mb
$cbr attach-agent $udp

proc finish {} {
    global ns tf nf cf
    $ns flush-trace
    close $tf
    close $nf
    close $cf
    puts "done at [$ns now] s"
    exec xgraph ns2_dumbbell.cwnd &
    exit 0
}
$ns at 0.1 "$cbr start"
$ns at 0.5 "$ftp start"
$ns at 9.5 "$ftp stop"
$ns at 9.8 "$cbr stop"
$ns at 10.0 "finish"
$ns run
