# A procedure that reads a Reno sender's cwnd_ and ssthresh_ every 0.25 s (it steps the run
# live) and writes them to cwnd_probe.txt.
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 8
set tcp [new Agent/TCP/Reno]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
set f [open cwnd_probe.txt w]
proc probe {} {
    global ns tcp f
    puts $f "[$ns now] [$tcp set cwnd_] [$tcp set ssthresh_]"
    $ns at [expr {[$ns now] + 0.25}] probe
}
$ns at 0.05 probe
$ns at 0.1 "$ftp start"
$ns at 3.0 "close $f; exit 0"
$ns run
