# Bakthavachalu 2004 Tables 5.10 / 6.3 (delta-fair convergence), the twin of
# experiments/bakthavachalu2004/scenarios/convergence_10.toml for ns-2.35:
#   ns conv.tcl <Agent/TCP class suffix: Vegas, Sack1, Reno, Newreno; Tahoe (Agent/TCP); or Gaimd, Sqrt, Iiad (Sack1 with the
#               friendliness twin's settings), TFRC (Agent/TFRC)> <seed> [ecn | FILE]
# Two flows of the class share a 10 Mb/s RED bottleneck; flow0's 15 Mb/s access link carries a
# 14.9 Mb/s CBR (to another port of r1) for the first 20 s. Prints flow0's throughput per 1-s bin
# in wire bytes (acknowledged segments x 1040 B; x 1000 B for Vegas, whose packets are
# packetSize_ on the wire) as "end_s mbps", as nsim's flow_throughput series counts them. The seed draws both flows' start
# times uniformly in [0, 0.1) s (our choice: the thesis does not say where its 10 runs differ);
# seed 0 starts both at 0, as the nsim scenario's flows (for a trace-by-trace comparison; with
# a third argument FILE, flow0's cwnd_ is traced there). A third argument `ecn` runs Table 5.10's
# other column: every sender `ecn_ 1` (TCP and TFRC) and RED `setbit_ true`, as the friendliness
# twin's ecn argument (Vegas' packets stay without ECT: ns-2's VegasTcpAgent::output never sets it).
set variant [lindex $argv 0]
set seed [lindex $argv 1]
set ecn [expr {[lindex $argv 2] eq "ecn"}]
if {$ecn} {
    Queue/RED set setbit_ true
    Agent/TCP set ecn_ 1
    Agent/TFRC set ecn_ 1
}
set ns [new Simulator]
set rng [new RNG]
$rng seed $seed
foreach n {s0 s1 d0 d1 cbr_sink r1 r2} { set $n [$ns node] }
source [file join [file dirname [info script]] .. bakthavachalu2004_friendliness setup.tcl]
bak_red 6.25 31.25
$ns duplex-link $s0 $r1 15Mb 2ms DropTail
$ns duplex-link $s1 $r1 100Mb 2ms DropTail
$ns duplex-link $r1 $r2 10Mb 20ms RED
$ns duplex-link $r1 $cbr_sink 100Mb 2ms DropTail
$ns duplex-link $r2 $d0 100Mb 2ms DropTail
$ns duplex-link $r2 $d1 100Mb 2ms DropTail
$ns queue-limit $s0 $r1 100
$ns queue-limit $r1 $s0 100
$ns queue-limit $s1 $r1 100
$ns queue-limit $r1 $s1 100
$ns queue-limit $r1 $r2 63
$ns queue-limit $r2 $r1 63
set udp [new Agent/UDP]
$ns attach-agent $s0 $udp
set null [new Agent/Null]
$ns attach-agent $cbr_sink $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set rate_ 14.9Mb
$cbr attach-agent $udp
$ns at 0.0 "$cbr start"
$ns at 20.0 "$cbr stop"
foreach i {0 1} {
    if {$variant eq "TFRC"} {
        set tcp($i) [new Agent/TFRC]
        $tcp($i) set packetSize_ 1000
        set sink($i) [new Agent/TFRCSink]
    } else {
        if {$variant in {Sqrt Iiad Gaimd}} {
            # Table 5.10's other protocols, set as in ../bakthavachalu2004_friendliness
            set tcp($i) [bak_sack1_sender $variant]
        } elseif {$variant eq "Tahoe"} {
            set tcp($i) [new Agent/TCP]
        } else {
            set tcp($i) [new Agent/TCP/$variant]
        }
        $tcp($i) set window_ 10000
        # a SACK sender gets a SACK receiver (TCPSink/Sack1), as in the friendliness twin
        set sack [expr {$variant in {Sack1 Gaimd Sqrt Iiad}}]
        set sink($i) [new Agent/TCPSink[expr {$sack ? "/Sack1" : ""}]]
    }
    $tcp($i) set fid_ [expr $i + 1]
    $ns attach-agent [set s$i] $tcp($i)
    $ns attach-agent [set d$i] $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr {$seed == 0 ? 0.0 : [$rng uniform 0 0.1]}] "$ftp($i) start"
}
if {[llength $argv] > 2 && !$ecn} {
    set cw [open [lindex $argv 2] w]
    $tcp(0) attach $cw
    $tcp(0) trace cwnd_
}
set wire [expr {$variant eq "Vegas" ? 1000 : 1040}]
# TFRC has no cumulative ACK: its flow0 is counted in bytes leaving the bottleneck (a flow
# monitor by fid on r1 -> r2; ns-2's TFRC packets are packetSize_ on the wire).
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r1 $r2] $fmon
set last 0
proc sample {} {
    global ns tcp last wire variant fmon
    set now [$ns now]
    if {$variant eq "TFRC"} {
        set flow [[$fmon classifier] lookup auto 0 0 1]
        set count [expr {$flow eq "" ? 0 : [$flow set bdepartures_]}]
        set bytes [expr $count - $last]
    } else {
        set count [$tcp(0) set ack_]
        if {$count < 0} { set count 0 }
        set bytes [expr ($count - $last) * $wire]
    }
    puts [format "%.0f %.6f" $now [expr $bytes * 8 / 1e6]]
    set last $count
    $ns at [expr $now + 1.0] "sample"
}
$ns at 1.0 "sample"
$ns at 60.0 "exit 0"
$ns run
