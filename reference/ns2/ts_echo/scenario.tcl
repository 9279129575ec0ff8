# nsim reference: which timestamp ns-2.35's TCP sink echoes (Agent/TCPSink ts_echo_bugfix_) on
# the Fall & Floyd path of ../fall_floyd/scenario.tcl (ns-2.35 defaults otherwise).
# usage: ns scenario.tcl <ts_echo_bugfix: true|false> <variant> <droplist> <outprefix> [stoptime]
#   true is ns-2.35's default (tcl/lib/ns-default.tcl, "default changed, 2003/8/13"): the sink
#   echoes the timestamp it holds (Acker::update_ts), not the arriving segment's (false).
Agent/TCPSink set ts_echo_bugfix_ [lindex $argv 0]
set argv [concat [lrange $argv 1 2] default [lrange $argv 3 end]]
source [file join [file dirname [info script]] .. fall_floyd scenario.tcl]
