# Shared by transfers.tcl and sharing.tcl: the study's TCP settings (window 64, 1000-B segments,
# 1 s minimum RTO; ns-2.35's defaults otherwise) and its drop-tail port's buffer.
Agent/TCP set window_ 64
Agent/TCP set packetSize_ 1000
Agent/TCP set minrto_ 1.0

# The buffer of the port sw -> d: LIMIT bytes (UNIT "B": queue_in_bytes_ with mean_pktsize_
# 1000, so a limit of LIMIT/1000 of them) or LIMIT packets (UNIT "p", ns-2's default queue).
proc port_buffer {ns sw d limit unit} {
  if {$unit == "B"} {
    [[$ns link $sw $d] queue] set queue_in_bytes_ true
    [[$ns link $sw $d] queue] set mean_pktsize_ 1000
    $ns queue-limit $sw $d [expr $limit / 1000]
  } else {
    $ns queue-limit $sw $d $limit
  }
}
