# Request/answer exchanges over ns-2.35 FullTcp (Application/TcpApp) on one 10 Mb/s 50 ms
# link: the client sends <request> bytes at each of <times> (the first opens the connection);
# the server sends <answer> bytes back as soon as a request has arrived. Printed per request:
# its number, send time, and the time the whole answer has arrived at the client.
# usage: ns exchange.tcl <request> <answer> <times...>
set request [lindex $argv 0]
set answer [lindex $argv 1]
set times [lrange $argv 2 end]
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 50ms DropTail
Agent/TCP/FullTcp set segsize_ 1000
Agent/TCP/FullTcp set window_ 100
Agent/TCP/FullTcp set windowInit_ 100
set c [new Agent/TCP/FullTcp]
set s [new Agent/TCP/FullTcp]
$ns attach-agent $n0 $c
$ns attach-agent $n1 $s
$ns connect $c $s
$s listen
set ca [new Application/TcpApp $c]
set sa [new Application/TcpApp $s]
$ca connect $sa
Application/TcpApp instproc answer {k} {
    global ca answer
    $self send $answer "$ca got $k"
}
Application/TcpApp instproc got {k} {
    global ns sent
    puts "$k $sent($k) [$ns now]"
}
proc ask {k} {
    global ns ca sa sent request
    set sent($k) [$ns now]
    $ca send $request "$sa answer $k"
}
set k 0
foreach t $times {
    $ns at $t "ask $k"
    incr k
}
$ns at [expr [lindex $times end] + 2.0] "exit 0"
$ns run
