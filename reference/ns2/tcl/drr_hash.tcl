# ns-2's hashed DRR (Queue/DRR) at a 1 Mb/s bottleneck: four CBR sources on four nodes, three
# buckets, so that node 3 shares node 0's bucket (ns-2 hashes the source address only).
# Offered 1.6 Mb/s: bucket 0 (nodes 0 and 3) 700 kb/s, bucket 1 600 kb/s, bucket 2 300 kb/s;
# the shared 6,000-byte buffer drops from the longest bucket. The link runs at 1,000,003 b/s
# (a prime), so that no departure falls at the instant of an arrival (ns-2 and nsim order
# such ties differently: docs/guide/ns2-scripts.md). Packet sizes differ per source
# (500, 250, 1000, 500 bytes), so the quantum's deficit carries over between rounds.
set ns [new Simulator]
set f [open drr_hash.tr w]
$ns trace-all $f
Queue/DRR set buckets_ 3
Queue/DRR set quantum_ 500
for {set i 0} {$i < 6} {incr i} { set n($i) [$ns node] }
for {set i 0} {$i < 4} {incr i} { $ns duplex-link $n($i) $n(4) 10Mb 1ms DropTail }
$ns duplex-link $n(4) $n(5) 1000003 10ms DRR
[[$ns link $n(4) $n(5)] queue] blimit 6000
set null [new Agent/Null]
$ns attach-agent $n(5) $null
foreach {i size rate start} {0 500 400kb 0.1 1 250 600kb 0.1013 2 1000 300kb 0.1027 3 500 300kb 0.1041} {
    set udp($i) [new Agent/UDP]
    $udp($i) set fid_ $i
    $ns attach-agent $n($i) $udp($i)
    $ns connect $udp($i) $null
    set cbr($i) [new Application/Traffic/CBR]
    $cbr($i) set packetSize_ $size
    $cbr($i) set rate_ $rate
    $cbr($i) attach-agent $udp($i)
    $ns at $start "$cbr($i) start"
    $ns at 3.0 "$cbr($i) stop"
}
$ns at 3.5 "$ns flush-trace; close $f; exit 0"
$ns run
