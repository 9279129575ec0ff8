# nsim reference: Reno (or Tahoe, class TCP) WITHOUT ns-2's multiple-fast-retransmit guard (bugFix_ false,
# 4.3BSD-Reno's behaviour; Goyal-Jain 1997 §2.3, Fig. 2), on Fall & Floyd's topology (as
# ../fall_floyd/, ns-2.35 defaults otherwise).
# usage: ns scenario.tcl <class> <droplist> <outprefix> [stoptime]
#   <class>: TCP/Reno or TCP (Tahoe); writes <outprefix>.tr (packet trace) and <outprefix>.cw
#   (cwnd/ssthresh trace)
set class [lindex $argv 0]
set droplist [lindex $argv 1]
set out [lindex $argv 2]
set stoptime 6.0
if {[llength $argv] > 3} { set stoptime [lindex $argv 3] }

set ns [new Simulator]
set tf [open $out.tr w]
$ns trace-all $tf

# node ids: s1=0 r1=1 k1=2
set s1 [$ns node]
set r1 [$ns node]
set k1 [$ns node]
$ns duplex-link $s1 $r1 8Mb 0ms DropTail
$ns duplex-link $r1 $k1 800Kb 100ms DropTail
$ns queue-limit $r1 $k1 8
$ns queue-limit $k1 $r1 8

set em [new ErrorModule Fid]
[$ns link $r1 $k1] errormodule $em
set errmodel [new ErrorModel/List]
$errmodel droplist $droplist
$em insert $errmodel
$em bind $errmodel 1

Agent/TCP set bugFix_ false
set tcp [$ns create-connection $class $s1 TCPSink $k1 1]
$tcp set window_ 28
$tcp set packetSize_ 1000
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp start"

set cwf [open $out.cw w]
$tcp trace cwnd_
$tcp trace ssthresh_
$tcp attach $cwf

proc finish {} {
    global ns tf cwf
    $ns flush-trace
    close $tf
    close $cwf
    exit 0
}
$ns at $stoptime "finish"
$ns run
