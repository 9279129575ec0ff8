# Telnet-like echo over ns-2.35 FullTcp (Application/TcpApp): the client sends a 60 B
# keystroke at 0, 1, 2, 3, 4 s; the server's TcpApp sends 60 B back when the keystroke has
# arrived; printed: keystroke send time and echo arrival time at the client.
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
Application/TcpApp instproc echo {k} {
    global ca
    $self send 60 "$ca got $k"
}
Application/TcpApp instproc got {k} {
    global ns sent
    puts "$k $sent($k) [$ns now]"
}
proc key {k} {
    global ns ca sa sent
    set sent($k) [$ns now]
    $ca send 60 "$sa echo $k"
}
foreach k {0 1 2 3 4} {
    $ns at $k.0 "key $k"
}
$ns at 6.0 "exit 0"
$ns run
