# The best-effort flows and the calls of Holl 2003's dumbbell, shared by ch4.tcl and
# ../holl2003_ch6/ch6.tcl (sourced; our own script, written from the study's generated scenarios).

# Packet size for a TCP class name: 536 B payload (576 B on the wire), but Vegas 576, since
# ns-2's Vegas adds no header.
proc holl_packet_size {variant} { expr {$variant eq "Vegas" ? 576 : 536} }

# Seeds ns-2's defaultRNG (each TCP's boot_time_, RED's drops) with seed and returns a second RNG
# with the same seed, for the start jitter.
proc holl_rngs {seed} {
    global defaultRNG
    $defaultRNG seed $seed
    set r [new RNG]
    $r seed $seed
    return $r
}

# BE flow i of 2 npairs (pair j = i/2; even i sends r0 -> r1): source and sink hosts 4 + 96 j/63 ms
# away on 10 Mb/s links, a tcpclass sender (packetSize_ pktsize, window_ from the proc `window`
# called with i and the access delay in ms, fid_ i + 1) and a sinkclass sink, an FTP started at
# 0.1 + 0.5 (i / 16) s, moved by U[0, 0.5) s from jrng when jitter is 1. Fills the global arrays
# tcp, sink and ftp.
proc holl_be_flows {ns r0 r1 npairs tcpclass sinkclass pktsize window jitter jrng} {
    global tcp sink ftp
    for {set i 0} {$i < 2 * $npairs} {incr i} {
        set j [expr {$i / 2}]
        set d_ms [expr {4.0 + 96.0 * $j / 63.0}]
        set src [$ns node]
        set dst [$ns node]
        if {$i % 2 == 0} { set rs $r0; set rd $r1 } else { set rs $r1; set rd $r0 }
        $ns duplex-link $src $rs 10Mb ${d_ms}ms DropTail
        $ns duplex-link $dst $rd 10Mb ${d_ms}ms DropTail
        set tcp($i) [new $tcpclass]
        $tcp($i) set packetSize_ $pktsize
        $tcp($i) set window_ [$window $i $d_ms]
        $tcp($i) set fid_ [expr {$i + 1}]
        set sink($i) [new $sinkclass]
        $ns attach-agent $src $tcp($i)
        $ns attach-agent $dst $sink($i)
        $ns connect $tcp($i) $sink($i)
        set ftp($i) [new Application/FTP]
        $ftp($i) attach-agent $tcp($i)
        set start [expr {0.1 + 0.5 * ($i / 16)}]
        if {$jitter} { set start [expr {$start + [$jrng uniform 0 0.5]}] }
        $ns at $start "$ftp($i) start"
    }
}

# Calls: 2 ncalls one-way CBR flows of 92 B every 8 ms over UDP (fid 1000 + c; even c from r0's
# side) on their own 10 Mb/s, 5 ms hosts. Returns the CBR sources, in c order, unstarted.
proc holl_calls {ns r0 r1 ncalls} {
    set cbrs {}
    for {set c 0} {$c < 2 * $ncalls} {incr c} {
        set src [$ns node]
        set dst [$ns node]
        if {$c % 2 == 0} { set rs $r0; set rd $r1 } else { set rs $r1; set rd $r0 }
        $ns duplex-link $src $rs 10Mb 5ms DropTail
        $ns duplex-link $dst $rd 10Mb 5ms DropTail
        set udp [new Agent/UDP]
        $udp set fid_ [expr {1000 + $c}]
        set null [new Agent/Null]
        $ns attach-agent $src $udp
        $ns attach-agent $dst $null
        $ns connect $udp $null
        set cbr [new Application/Traffic/CBR]
        $cbr set packetSize_ 92
        $cbr set interval_ 0.008
        $cbr attach-agent $udp
        lappend cbrs $cbr
    }
    return $cbrs
}
