# nsim reference: RED two-source scenario (Floyd & Jacobson 1993 style), ns-2.35.
# usage: ns scenario.tcl <gentle: 0|1> <outprefix> [stoptime] [window]
# writes <outprefix>.tr (all-link packet trace), <outprefix>.q (RED curq_/ave_
# trace on r1->r2) and <outprefix>.stats
set gentle [lindex $argv 0]
set out [lindex $argv 1]
set stoptime 25.0
if {[llength $argv] > 2} { set stoptime [lindex $argv 2] }
set window 15
if {[llength $argv] > 3} { set window [lindex $argv 3] }

Queue/RED set thresh_ 5
Queue/RED set maxthresh_ 15
Queue/RED set q_weight_ 0.002
Queue/RED set linterm_ 10
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set gentle_ [expr {$gentle ? "true" : "false"}]
Queue/RED set wait_ true
Queue/RED set setbit_ false
Queue/RED set drop_tail_ true

set ns [new Simulator]
set tf [open $out.tr w]
$ns trace-all $tf

# node ids: s1=0 s2=1 r1=2 r2=3 s3=4 s4=5
set s1 [$ns node]
set s2 [$ns node]
set r1 [$ns node]
set r2 [$ns node]
set s3 [$ns node]
set s4 [$ns node]
$ns duplex-link $s1 $r1 10Mb 2ms DropTail
$ns duplex-link $s2 $r1 10Mb 3ms DropTail
$ns duplex-link $r1 $r2 1.5Mb 20ms RED
$ns queue-limit $r1 $r2 25
$ns queue-limit $r2 $r1 25
$ns duplex-link $s3 $r2 10Mb 4ms DropTail
$ns duplex-link $s4 $r2 10Mb 5ms DropTail

set redq [[$ns link $r1 $r2] queue]
set qf [open $out.q w]
$redq trace curq_
$redq trace ave_
$redq attach $qf

# per-flow drop accounting on r1->r2 (RED distinguishes early/unforced drops)
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r1 $r2] $fmon 1

set tcp1 [$ns create-connection TCP/Reno $s1 TCPSink $s3 1]
set tcp2 [$ns create-connection TCP/Reno $s2 TCPSink $s4 2]
foreach t [list $tcp1 $tcp2] {
    $t set window_ $window
    $t set packetSize_ 1000
}
set ftp1 [$tcp1 attach-app FTP]
set ftp2 [$tcp2 attach-app FTP]
$ns at 0.0 "$ftp1 start"
$ns at 3.0 "$ftp2 start"

# periodic sample of the RED state every 10 ms at exact times (the TracedVar
# file above is event-based but ns-2 prints its time with %g = 6 significant
# digits; ave_ itself is only available to 6 significant digits either way)
set sf_ [open $out.qs w]
proc sample {} {
    global ns redq sf_
    puts $sf_ "[format %.9f [$ns now]] [$redq set curq_] [$redq set ave_]"
    $ns at [expr [$ns now] + 0.01] "sample"
}
$ns at 0.0 "sample"

proc finish {} {
    global ns tf qf out tcp1 tcp2 fmon redq
    $ns flush-trace
    close $tf
    close $qf
    global sf_
    close $sf_
    set sf [open $out.stats w]
    set i 1
    foreach t [list $tcp1 $tcp2] {
        puts $sf "fid${i}_nrexmitpack [$t set nrexmitpack_]"
        puts $sf "fid${i}_nrexmit [$t set nrexmit_]"
        puts $sf "fid${i}_ndatapack [$t set ndatapack_]"
        incr i
    }
    foreach v {parrivals_ pdepartures_ pdrops_ pmarks_ epdrops_} {
        if {[catch {puts $sf "link_$v [$fmon set $v]"}]} { puts $sf "link_$v NA" }
    }
    foreach fl [$fmon flows] {
        set fid [$fl set flowid_]
        foreach v {parrivals_ pdepartures_ pdrops_ epdrops_ pmarks_} {
            if {[catch {puts $sf "fid${fid}_$v [$fl set $v]"}]} { puts $sf "fid${fid}_$v NA" }
        }
    }
    foreach v {ave_ curq_ cur_max_p_} { catch {puts $sf "red_$v [$redq set $v]"} }
    close $sf
    exit 0
}
$ns at $stoptime "finish"
$ns run
