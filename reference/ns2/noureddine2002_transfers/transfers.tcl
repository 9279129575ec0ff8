# Noureddine 2002 §3.2.1 (Figs 3.2, 3.3) in ns-2.35: back-to-back transfers of one file size
# from s (100 Mb/s) through sw to d over a 10 Mb/s drop-tail port; twin of
# experiments/noureddine2002/scenarios/ch3_transfers.toml (one flow).
# argv: SIZE_BYTES LIMIT UNIT DELAY
#   LIMIT UNIT: the port's buffer, "50 p" (packets, ns-2's default queue) or "50000 B" (bytes,
#   queue-in-bytes_ with mean_pktsize_ 1000 and a limit of LIMIT/1000 of them)
#   DELAY: the port's one-way delay (the access link keeps 10us), e.g. 10us, 2.5ms
# Each transfer is a fresh Agent/TCP/Reno + TCPSink pair (nsim's `new_connection`: initial
# window, ssthresh and RTO again); only the first sends a SYN (syn_ true on the first, false
# after, as nsim). Reno with ns-2.35's defaults except window_ 64, packetSize_ 1000 (1040 B on
# the wire), minrto_ 1 s, as the twin. 30 s.
# Prints: transfers completed, their bytes, their summed duration (s), drops at the port.
set size [lindex $argv 0]
set limit [lindex $argv 1]
set unit [lindex $argv 2]
set delay [lindex $argv 3]
set ns [new Simulator]
set s [$ns node]; set sw [$ns node]; set d [$ns node]
$ns duplex-link $s $sw 100Mb 10us DropTail
$ns queue-limit $s $sw 100000
$ns duplex-link $sw $d 10Mb $delay DropTail
source [file join [file dirname [info script]] setup.tcl]
port_buffer $ns $sw $d $limit $unit
set qmon [$ns monitor-queue $sw $d ""]
set npkts [expr int(ceil($size / 1000.0))]
set done_n 0; set done_bytes 0; set done_s 0.0; set first 1
proc start_transfer {} {
  global ns s d npkts first cur t0
  set tcp [new Agent/TCP/Reno]
  if {!$first} { $tcp set syn_ false }
  set first 0
  set sink [new Agent/TCPSink]
  $ns attach-agent $s $tcp; $ns attach-agent $d $sink; $ns connect $tcp $sink
  set t0 [$ns now]
  $tcp advance $npkts
}
Agent/TCP/Reno instproc done {} {
  global ns done_n done_bytes done_s t0 size
  if {[$ns now] > 30.0} return
  incr done_n; set done_bytes [expr $done_bytes + $size]
  set done_s [expr $done_s + [$ns now] - $t0]
  $ns at [$ns now] "start_transfer"
}
proc report {} {
  global done_n done_bytes done_s qmon
  puts "$done_n,$done_bytes,[format %.6f $done_s],[$qmon set pdrops_]"
  exit 0
}
$ns at 0.0 "start_transfer"
$ns at 30.0 "report"
$ns run
