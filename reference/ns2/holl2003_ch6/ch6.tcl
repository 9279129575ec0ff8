# Holl 2003 chapter 6's step response in ns-2.35: the twin of
# experiments/holl2003/scenarios/ch6_step.toml and ch6_step_wl_<tcp>.toml (our own script, written
# from the study's generated scenarios, not from the thesis' lost scripts).
#   ns ch6.tcl <tcp: Newreno | Vegas> <wl: 0 | 1 | 2> <seed> <jitter: 0 | 1> [<cwnd trace file>]
# 64 best-effort pairs as in ../holl2003_ch4/ch4.tcl (128 one-way flows, packetSize_ 536, so 576 B
# on the wire; Vegas packetSize_ 576, since ns-2's Vegas adds no header), 10 Mb/s access links of
# 4 + 96 j/63 ms for pair j, groups of 16 from 0.1 + 0.5 k s, with jitter 1 each start moved by
# U[0, 0.5) s from an RNG seeded with <seed> (the study's start_jitter). window_ 20 (wl 0) or the
# pair's W_opt = floor(2a + 1), a = 1.536 Mb/s x (0.45 s + 2 d) / (576 B x 64) (Eq. 6.4; wl 1),
# or W_opt with the best-effort buffer at Eq. 6.5's worst-case burst, 401 packets (wl 2).
# The hop r0-r1 (1.536 Mb/s, 450 ms) is a CBQ link each way: the calls' class (fids 1000-1015,
# priority 1, DropTail 16 = Eq. 4.2 for 8 calls) before the best-effort class (fids 0-999, which
# holds the sinks' ACKs with fid 0; priority 2, DropTail 64, 401 with wl 2), both allot 1.0 and allowed to
# borrow, so neither is ever held to a share: strict priority, as the study's `cbq`.
# 8 two-way calls (16 one-way CBR flows, 92 B every 8 ms over UDP) run from 123.6 s to 428.1 s.
# At 428.6 s the script prints per BE flow "be <i> <pair> <dir> <window> <g_before> <g_after>
# <g_3s_0> ... <g_3s_79>": payload goodput in b/s over [63.6, 123.6] s, [183.6, 423.6] s and the
# 80 consecutive 3 s windows from 183.6 s (the sink's in-order bytes_ x 536/576).
# With a fifth argument every BE sender's cwnd_ and ssthresh_ changes are traced to that file
# (ns-2's traced-variable lines: time, addresses, ports, name, value; episodes.py reads them).
if {[llength $argv] < 4 || [llength $argv] > 5} {
    puts stderr "usage: ns ch6.tcl Newreno|Vegas WL(0|1|2) SEED JITTER(0|1) \[CWND_TRACE\]"
    exit 2
}
lassign $argv variant wl seed jitter cwndfile
switch -- $variant {
    Newreno - Vegas { set tcpclass Agent/TCP/$variant }
    default { puts stderr "unknown TCP $variant"; exit 2 }
}
source [file join [file dirname [info script]] .. holl2003_ch4 holl_dumbbell.tcl]
set pktsize [holl_packet_size $variant]
set ns [new Simulator]
set jrng [holl_rngs $seed]
set npairs 64
set ncalls 8
set finish 428.6
set marks [list 63.6 123.6]
for {set k 0} {$k <= 80} {incr k} { lappend marks [expr {183.6 + 3.0 * $k}] }

proc cbq_hop {ns from to} {
    global wl
    $ns simplex-link $from $to 1.536Mb 450ms CBQ
    set link [$ns link $from $to]
    set top [new CBQClass]
    $top setparams none 0 1.0 auto 8 2 0
    set cbr [new CBQClass]
    set qc [new Queue/DropTail]
    $qc set limit_ 16
    $cbr install-queue $qc
    $cbr setparams $top true 1.0 auto 1 1 0
    set be [new CBQClass]
    set qb [new Queue/DropTail]
    $qb set limit_ [expr {$wl == 2 ? 401 : 64}]
    $be install-queue $qb
    $be setparams $top true 1.0 auto 2 1 0
    $link insert $top
    $link insert $cbr
    $link insert $be
    $link bind $cbr 1000 1015
    $link bind $be 0 999
}

if {$cwndfile ne ""} { set cwndtrace [open $cwndfile w] }
set r0 [$ns node]
set r1 [$ns node]
cbq_hop $ns $r0 $r1
cbq_hop $ns $r1 $r0

proc pair_window {i d_ms} {
    global wl npairs win
    set a [expr {1536000.0 * (0.450 + 2.0 * $d_ms / 1000.0) / (8.0 * 576 * $npairs)}]
    set win($i) [expr {$wl ? int(floor(2.0 * $a + 1.0)) : 20}]
    return $win($i)
}
holl_be_flows $ns $r0 $r1 $npairs $tcpclass Agent/TCPSink $pktsize pair_window $jitter $jrng
if {$cwndfile ne ""} {
    for {set i 0} {$i < 2 * $npairs} {incr i} {
        $tcp($i) attach $cwndtrace
        $tcp($i) trace cwnd_
        $tcp($i) trace ssthresh_
    }
}
foreach cbr [holl_calls $ns $r0 $r1 $ncalls] {
    $ns at 123.6 "$cbr start"
    $ns at 428.1 "$cbr stop"
}

proc mark {k} {
    global sink npairs bytes
    for {set i 0} {$i < 2 * $npairs} {incr i} { set bytes($k,$i) [$sink($i) set bytes_] }
}
proc goodput {i k0 k1} {
    global bytes marks
    set dt [expr {[lindex $marks $k1] - [lindex $marks $k0]}]
    # bytes_ counts whole packets (576 B on the wire); goodput counts the 536 B payload.
    return [format "%.3f" [expr {($bytes($k1,$i) - $bytes($k0,$i)) / 576.0 * 536.0 * 8.0 / $dt}]]
}
proc finish {} {
    global npairs win marks
    set last [expr {[llength $marks] - 1}]
    for {set i 0} {$i < 2 * $npairs} {incr i} {
        set line [list be $i [expr {$i / 2}] [expr {$i % 2}] $win($i) [goodput $i 0 1] [goodput $i 2 $last]]
        for {set k 2} {$k < $last} {incr k} { lappend line [goodput $i $k [expr {$k + 1}]] }
        puts [join $line " "]
    }
    global cwndfile cwndtrace
    if {$cwndfile ne ""} { close $cwndtrace }
    exit 0
}
for {set k 0} {$k < [llength $marks]} {incr k} { $ns at [lindex $marks $k] "mark $k" }
$ns at $finish "finish"
$ns run
