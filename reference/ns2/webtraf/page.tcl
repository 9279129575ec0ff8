# One PagePool/WebTraf page (one object of 10 packets) over one 10 Mb/s, 50 ms link: client
# n0, server n1, one-way Agent/TCP/Newreno without the SYN-like first packet (syn_ false).
# ns page.tcl WINDOW_INIT DROP [SYN]
#   WINDOW_INIT: Agent/TCP windowInit_
#   SYN: Agent/TCP syn_ (default false; true sends ns-2's header-only first segment)
#   DROP: -1 for none, or k: ErrorModel/List loses packet k (0-based) on n1 -> n0
#         (0 is the request's acknowledgment)
# Prints WebTraf's own trace lines (req_trace_, resp_trace_): "req + ... launch time",
# "resp + ... start", "resp - ... done".
set window_init [lindex $argv 0]
set drop [lindex $argv 1]
set syn [expr {[llength $argv] > 2 ? [lindex $argv 2] : "false"}]
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 50ms DropTail
if {$drop >= 0} {
    set em [new ErrorModel/List]
    $em droplist [list $drop]
    $ns lossmodel $em $n1 $n0
}
Agent/TCP set syn_ $syn
Agent/TCP set windowInit_ $window_init
PagePool/WebTraf set req_trace_ 1
PagePool/WebTraf set resp_trace_ 1
PagePool/WebTraf set TCPTYPE_ Newreno
set pool [new PagePool/WebTraf]
$pool set-num-client 1
$pool set-client 0 $n0
$pool set-num-server 1
$pool set-server 0 $n1
$pool set-num-session 1
set interPage [new RandomVariable/Constant]; $interPage set val_ 100
set pageSize [new RandomVariable/Constant]; $pageSize set val_ 1
set interObj [new RandomVariable/Constant]; $interObj set val_ 0.01
set objSize [new RandomVariable/Constant]; $objSize set val_ 10
# session 0: 1 page, launched at 1 s
$pool create-session 0 1 1.0 $interPage $pageSize $interObj $objSize
$ns at 30.0 "exit 0"
$ns run
