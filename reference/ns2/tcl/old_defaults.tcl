# ns-2's pre-2006 Reno defaults its TCP test suites set (bugFix_ false: every third duplicate
# ACK may retransmit again; precisionReduce_ false: halving keeps whole packets) with three
# packets dropped from one window (the Fall & Floyd case where bugFix_ matters) and a fourth
# later, in congestion avoidance (where precisionReduce_ does).
Agent/TCP set bugFix_ false
Agent/TCP set precisionReduce_ false
set ns [new Simulator]
set tf [open old_defaults.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 50ms DropTail
$ns queue-limit $n1 $n2 30
set em [new ErrorModel/List]
$em droplist {14 16 18 200}
$ns lossmodel $em $n1 $n2
set tcp [$ns create-connection TCP/Reno $n0 TCPSink $n2 1]
$tcp set window_ 30
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 4.0 "close $tf; exit 0"
$ns run
