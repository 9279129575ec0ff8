# Settings shared by the Bakthavachalu 2004 ns-2.35 twins (scenario.tcl here,
# ../bakthavachalu2004_cbr, ../bakthavachalu2004_onoff, ../bakthavachalu2004_conv), sourced by
# each: the thesis' ns-2.1b8-era RED and one-way TCP, and its window-rule senders.

# RED in packet mode (ns-2.1b8's default), gentle, w_q 0.05, linterm 10 (Table 4.2), with the
# link's thresholds in packets.
proc bak_red {thresh maxthresh} {
  Queue/RED set bytes_ false
  Queue/RED set queue_in_bytes_ false
  Queue/RED set gentle_ true
  Queue/RED set q_weight_ 0.05
  Queue/RED set linterm_ 10
  Queue/RED set thresh_ $thresh
  Queue/RED set maxthresh_ $maxthresh
}

# One-way TCP as in ns-2.1b8: 1000-B packets, window 10000, no limited transmit (singledup_
# came later), whole-packet window reductions.
proc bak_tcp {} {
  Agent/TCP set packetSize_ 1000
  Agent/TCP set window_ 10000
  Agent/TCP set singledup_ 0
  Agent/TCP set precisionReduce_ false
}

# A new Agent/TCP/Sack1 sender for X: Sack1 as is; Gaimd, the thesis' GAIMD(1, 0.125)
# (increase_num_ 1, decrease_num_ 0.875); Sqrt / Iiad, binomial windowOption_ 6 with k = l = 0.5
# / k = 1, l = 0, increase_num_ 1.5 and decrease_num_ 0 (beta 1).
proc bak_sack1_sender {x} {
  set src [new Agent/TCP/Sack1]
  switch -- $x {
    Gaimd {
      $src set decrease_num_ 0.875
      $src set increase_num_ 1.0
    }
    Sqrt - Iiad {
      $src set windowOption_ 6
      $src set increase_num_ 1.5
      $src set decrease_num_ 0
      $src set k_parameter_ [expr {$x eq "Sqrt" ? 0.5 : 1}]
      $src set l_parameter_ [expr {$x eq "Sqrt" ? 0.5 : 0}]
    }
  }
  return $src
}

# Flow i of the two classes from node snode to dnode, fid i: a TFRC flow (i < n) starts at
# 50i ms, an X flow (an FTP on its TCP sender) at 25 + 50(i - n) ms.
proc bak_class_flow {ns i n src sink snode dnode} {
  $src set fid_ $i
  $ns attach-agent $snode $src; $ns attach-agent $dnode $sink; $ns connect $src $sink
  if {$i < $n} {
    $ns at [expr 0.05 * $i] "$src start"
  } else {
    set ftp [new Application/FTP]; $ftp attach-agent $src
    $ns at [expr 0.025 + 0.05 * ($i - $n)] "$ftp start"
  }
}
