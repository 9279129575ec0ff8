# ns-2's token bucket filter between an agent and its node (`attach-tbf-agent`): a 400 kb/s
# CBR shaped to 200 kb/s with a two-packet bucket and room for 20 waiting packets (when they
# are full, packets are dropped inside the TBF: no trace line), and a 300 kb/s CBR policed
# to 100 kb/s (qlen_ 0: what the bucket does not hold is dropped at once). The link trace
# shows the shaped departures only. The token rates are primes (200,003 and 100,003 b/s), so
# that no packet finds the bucket holding exactly its size: ns-2's floating-point tokens
# decide such ties by rounding noise.
set ns [new Simulator]
set f [open tbf_shaper.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
$ns duplex-link $n2 $n1 1Mb 10ms DropTail
set null [new Agent/Null]
$ns attach-agent $n1 $null
foreach {i node size rate trate bucket qlen} {0 n0 500 400kb 200003 8000 20 1 n2 250 300kb 100003 4000 0} {
    set udp($i) [new Agent/UDP]
    $udp($i) set fid_ $i
    set tbf($i) [new TBF]
    $tbf($i) set rate_ $trate
    $tbf($i) set bucket_ $bucket
    $tbf($i) set qlen_ $qlen
    $ns attach-tbf-agent [set $node] $udp($i) $tbf($i)
    $ns connect $udp($i) $null
    set cbr($i) [new Application/Traffic/CBR]
    $cbr($i) set packetSize_ $size
    $cbr($i) set rate_ $rate
    $cbr($i) attach-agent $udp($i)
    $ns at 0.1 "$cbr($i) start"
    $ns at 1.105 "$cbr($i) stop"
}
$ns at 2.0 "$ns flush-trace; close $f; exit 0"
$ns run
