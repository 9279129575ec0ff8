# Holl 2003 chapter 4 in ns-2.35: the twin of experiments/holl2003/scenarios/ch4.toml (our own
# script, written from the study's generated scenario, not from the thesis' lost scripts).
#   ns ch4.tcl <tcp> <queue: DropTail | RED | REDauto> <calls> <seed> <jitter: 0 | 1> <trace channel> [<tcl>]
# <tcp>: Tahoe (Agent/TCP), Reno, Newreno, Vegas, Sack1 or Fack (Agent/TCP/<tcp>; Sack1 and Fack
# with Agent/TCPSink/Sack1, the others with Agent/TCPSink).
# 64 best-effort pairs (128 one-way flows of that TCP, window_ 20, FTP; packetSize_ 536, so
# 576 B on the wire; Vegas packetSize_ 576, since ns-2's Vegas adds no header), n two-way CBR calls (92 B every 8 ms over Agent/UDP from t = 0, in phase), the
# 1.536 Mb/s / 450 ms hop between routers r0 and r1 with a 64-packet queue each way. BE flow i
# (pair j = i/2; even i sends r0 -> r1) has 10 Mb/s access links of 4 + 96 j/63 ms on both
# sides, each call its own 10 Mb/s, 5 ms hosts; access queues are ns-2's default DropTail 50.
# BE flows start in groups of 16 at 0.1 + 0.5 k s (Table 4.2); with jitter 1 each start is
# moved by U[0, 0.5) s from an RNG seeded with <seed> (the study's start_jitter). <seed> also
# seeds ns-2's defaultRNG (each TCP's boot_time_ and RED's drops). RED: gentle, min 5, max 32,
# linterm 10, packet mode, q_weight_ 0.002 (RED) or ns-2.35's automatic -1 (REDauto).
# The optional last argument is Tcl run after these defaults and before the topology is built,
# for the README's what-if runs: ns-2 class defaults (e.g. "Agent/TCP set minrto_ 0") or
# "set be_window 1000" (the BE flows' window_) or "set cbr_phase 0.008" (each call starts at U[0, cbr_phase) s from the seeded RNG, not at 0),
# or "set ber 1e-5" (chapter 5, scenarios/ch5.toml, with 0 calls: each packet of b bytes crossing
# the hop is lost with probability 1 - (1 - BER)^(8 b), both ways: an ErrorModel of unit byte at
# 1 - (1 - BER)^8 per byte, attached with link-lossmodel, so a lost packet has used the hop's
# transmitter, as in nsim's default error placement).
# Both directions of the hop are traced (`trace-queue`) to <trace channel> (a file or "| cmd");
# at 128.6 s the script prints per BE flow "be <i> <pair> <dir> <goodput_bps> <timeouts>
# <rexmit_pkts> <data_pkts>" with goodput the sink's in-order payload over [63.6, 123.6] s.
if {[llength $argv] < 6 || [llength $argv] > 7} {
    puts stderr "usage: ns ch4.tcl TCP DropTail|RED|REDauto CALLS SEED JITTER(0|1) TRACE \[TCL\]"
    exit 2
}
lassign $argv variant qkind ncalls seed jitter tracefile whatif
switch -- $variant {
    Tahoe { set tcpclass Agent/TCP; set sinkclass Agent/TCPSink }
    Reno - Newreno - Vegas { set tcpclass Agent/TCP/$variant; set sinkclass Agent/TCPSink }
    Sack1 - Fack { set tcpclass Agent/TCP/$variant; set sinkclass Agent/TCPSink/Sack1 }
    default { puts stderr "unknown TCP $variant"; exit 2 }
}
source [file join [file dirname [info script]] holl_dumbbell.tcl]
set pktsize [holl_packet_size $variant]
set ns [new Simulator]
set jrng [holl_rngs $seed]
set npairs 64
set t_rec0 63.6
set t_rec1 123.6
set finish 128.6
set cbr_phase 0
set be_window 20
set ber 0

switch -- $qkind {
    DropTail { set satq DropTail }
    RED - REDauto {
        set satq RED
        Queue/RED set thresh_ 5
        Queue/RED set maxthresh_ 32
        Queue/RED set linterm_ 10
        Queue/RED set gentle_ true
        Queue/RED set bytes_ false
        Queue/RED set queue_in_bytes_ false
        Queue/RED set setbit_ false
        Queue/RED set q_weight_ [expr {$qkind eq "RED" ? 0.002 : -1}]
    }
    default { puts stderr "unknown queue $qkind"; exit 2 }
}

eval $whatif

set r0 [$ns node]
set r1 [$ns node]
$ns duplex-link $r0 $r1 1.536Mb 450ms $satq
$ns queue-limit $r0 $r1 64
$ns queue-limit $r1 $r0 64
if {$ber > 0} {
    foreach {from to} [list $r0 $r1 $r1 $r0] {
        set em [new ErrorModel]
        $em unit byte
        $em set rate_ [expr {1.0 - pow(1.0 - $ber, 8)}]
        $ns link-lossmodel $em $from $to
    }
}
if {$tracefile ne "/dev/null"} {
    set tf [open $tracefile w]
    $ns trace-queue $r0 $r1 $tf
    $ns trace-queue $r1 $r0 $tf
}

proc be_window {i d_ms} { global be_window; return $be_window }
holl_be_flows $ns $r0 $r1 $npairs $tcpclass $sinkclass $pktsize be_window $jitter $jrng
# Calls: all start at 0 (in phase), or at U[0, cbr_phase) s.
foreach cbr [holl_calls $ns $r0 $r1 $ncalls] {
    $ns at [expr {$cbr_phase > 0 ? [$jrng uniform 0 $cbr_phase] : 0.0}] "$cbr start"
}

proc mark_start {} {
    global sink npairs b0
    for {set i 0} {$i < 2 * $npairs} {incr i} { set b0($i) [$sink($i) set bytes_] }
}
proc finish {} {
    global ns sink tcp npairs b0 b1 t_rec0 t_rec1 tracefile tf
    for {set i 0} {$i < 2 * $npairs} {incr i} {
        # bytes_ counts whole packets (576 B on the wire); goodput counts the 536 B payload.
        set g [expr {($b1($i) - $b0($i)) / 576.0 * 536.0 * 8.0 / ($t_rec1 - $t_rec0)}]
        puts [format "be %d %d %d %.3f %d %d %d" $i [expr {$i / 2}] [expr {$i % 2}] $g \
            [$tcp($i) set nrexmit_] [$tcp($i) set nrexmitpack_] [$tcp($i) set ndatapack_]]
    }
    $ns flush-trace
    if {$tracefile ne "/dev/null"} { close $tf }
    exit 0
}
proc mark_end {} {
    global sink npairs b1
    for {set i 0} {$i < 2 * $npairs} {incr i} { set b1($i) [$sink($i) set bytes_] }
}
$ns at $t_rec0 "mark_start"
$ns at $t_rec1 "mark_end"
$ns at $finish "finish"
$ns run
