# DV route tables of a five-node network with link costs, before and after a failure.
set ns [new Simulator]
set f [open dv_table.tr w]
$ns trace-all $f
for {set i 0} {$i < 5} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 10Mb 10ms DropTail
$ns duplex-link $n(1) $n(2) 10Mb 10ms DropTail
$ns duplex-link $n(2) $n(3) 10Mb 10ms DropTail
$ns duplex-link $n(0) $n(3) 10Mb 10ms DropTail
$ns duplex-link $n(3) $n(4) 10Mb 10ms DropTail
$ns cost $n(0) $n(3) 3
$ns cost $n(3) $n(0) 3
$ns rtproto DV
$ns rtmodel-at 3.0 down $n(1) $n(2)
$ns rtmodel-at 6.0 up $n(1) $n(2)
proc dump {} {
    global ns n
    for {set i 0} {$i < 5} {incr i} {
        set r [$n($i) rtObject?]
        for {set j 0} {$j < 5} {incr j} {
            if {$i == $j} continue
            set hops {}
            foreach l [$r nextHop? $n($j)] { lappend hops [[$l set toNode_] id] }
            puts "[$ns now] $i $j [join $hops ,] [$r metric? $n($j)]"
        }
    }
}
foreach t {2.9 3.001 3.05 3.5 5.9 6.05 8.0} { $ns at $t "dump" }
$ns at 8.1 "close $f; exit 0"
$ns run
