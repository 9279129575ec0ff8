# Huang & Khazzam 2003 (lab2003) experiments 3-4 in ns-2.35: the twin of
# experiments/lab2003/scenarios/five_drops.toml with OPNET's TCP timers (tcpTick_ 0.5, minrto_ 1).
# usage: ns scenario.tcl VARIANT RATE DELAY_S SEED   (VARIANT Reno | Sack1; RATE e.g. 1.544Mb, 64kb)
# server -100Mb 1ms- r1 -RATE DELAY- r2 -100Mb 1ms- client; DropTail 20 on r1->r2, where the
# flow's packets 19-23 (0-based: the SYN is 0) are lost; window_ 8, packetSize_ 8152,
# windowInit_ 1, one ACK per segment; a 40-segment file after the SYN. Prints the time the
# last segment is acknowledged, the timeouts (nrexmit_) and the retransmitted packets
# (nrexmitpack_). The seed draws the agent's clock phase (boot_time_).
set variant [lindex $argv 0]
set rate [lindex $argv 1]
set delay [lindex $argv 2]
set seed [lindex $argv 3]
global defaultRNG
$defaultRNG seed $seed
Agent/TCP set tcpTick_ 0.5
Agent/TCP set minrto_ 1
set ns [new Simulator]
set s [$ns node]; set r1 [$ns node]; set r2 [$ns node]; set c [$ns node]
$ns duplex-link $s $r1 100Mb 1ms DropTail
$ns duplex-link $r1 $r2 $rate ${delay}s DropTail
$ns duplex-link $r2 $c 100Mb 1ms DropTail
$ns queue-limit $r1 $r2 20
set em [new ErrorModule Fid]
[$ns link $r1 $r2] errormodule $em
set errmodel [new ErrorModel/List]
$errmodel droplist {19 20 21 22 23}
$em insert $errmodel
$em bind $errmodel 1
if {$variant == "Sack1"} {
  set tcp [$ns create-connection TCP/Sack1 $s TCPSink/Sack1 $c 1]
} else {
  set tcp [$ns create-connection TCP/$variant $s TCPSink $c 1]
}
$tcp set window_ 8
$tcp set packetSize_ 8152
$tcp set windowInit_ 1
$ns at 0.0 "$tcp advance 41"
proc poll {} {
  global ns tcp
  if {[$tcp set ack_] >= 40} {
    puts "[format %.4f [$ns now]],[$tcp set nrexmit_],[$tcp set nrexmitpack_]"
    exit 0
  }
  $ns at [expr [$ns now] + 0.0001] "poll"
}
$ns at 0.0 "poll"
$ns at 600 "puts stderr {not finished in 600 s}; exit 1"
$ns run
