# OTcl object layer for ns-2 scripts run by nsim (python/nsim/ns2/interp.py loads it).
#
# Written for nsim after MIT OTcl's documented behaviour (otcl-1.14 doc/object.html,
# doc/class.html), for what ns-2 user scripts use: `Class Name -superclass {A B}`,
# `instproc`, `proc` on an object, `$self instvar`, `$self next`, `init`, `set` of bound
# variables with class defaults (`Agent/TCP set window_ 20`), `new`/`delete`, `info class`.
# An object is a command (an alias of ::otcl::dispatch) with its variables in the namespace
# ::otcl::o::<name>. A method the Tcl side does not define goes to ::ns2::native (Python).

namespace eval ::otcl::m {}
namespace eval ::otcl {
    variable next_id 0
    # ::otcl::supers(cls): superclasses; ::otcl::defaults(cls): dict of class defaults;
    # ::otcl::methods(cls,m) and ::otcl::methods(obj:o,m): proc names; ::otcl::class(o): class.
    variable supers
    variable defaults
    variable methods
    variable class
    # ::otcl::bound(cls): the bound variables an ns-2 class declares (python/nsim/ns2/defaults.py).
    variable bound
    # Objects whose bound variables Python answers live (a running agent's cwnd_, bytes_).
    variable live
    # Objects whose bound-variable writes Python checks (model parameters).
    variable watched
}

proc ::otcl::is_class {name} {
    return [info exists ::otcl::supers($name)]
}

# Declares a class: `Class Foo`, `Class Foo -superclass {A B}`.
proc Class {name args} {
    set name [string trimleft $name :]
    set supers [expr {$name eq "Object" ? {} : {Object}}]
    foreach {opt val} $args {
        if {$opt ne "-superclass"} { error "Class $name: unknown option $opt (only -superclass)" }
        foreach s $val {
            if {![::otcl::is_class $s]} { error "Class $name: unknown superclass $s" }
        }
        set supers $val
    }
    set ::otcl::supers($name) $supers
    if {![info exists ::otcl::defaults($name)]} { set ::otcl::defaults($name) {} }
    interp alias {} ::$name {} ::otcl::classcmd $name
    return $name
}

# Class precedence: the class, then its superclasses depth first, each once, Object last.
proc ::otcl::heritage {cls} {
    set out {}
    set todo [list $cls]
    while {[llength $todo]} {
        set c [lindex $todo 0]
        set todo [lrange $todo 1 end]
        if {$c eq "Object" || $c in $out} { continue }
        lappend out $c
        set todo [concat $::otcl::supers($c) $todo]
    }
    lappend out Object
    return $out
}

proc ::otcl::classcmd {cls sub args} {
    switch -- $sub {
        instproc {
            lassign $args m params body
            set pname ::otcl::m::[incr ::otcl::next_id]
            proc $pname [concat {self class proc} $params] $body
            set ::otcl::methods($cls,$m) $pname
            return ""
        }
        set {
            if {[llength $args] == 1} {
                set v [lindex $args 0]
                if {[dict exists $::otcl::defaults($cls) $v]} { return [dict get $::otcl::defaults($cls) $v] }
                error "can't read \"$v\": no such variable (of class $cls)"
            }
            lassign $args v val
            dict set ::otcl::defaults($cls) $v $val
            return $val
        }
        superclass {
            if {[llength $args] == 0} { return $::otcl::supers($cls) }
            set ::otcl::supers($cls) [lindex $args 0]
            return ""
        }
        create { return [::otcl::create $cls {*}$args] }
        new { return [new $cls {*}$args] }
        instvar { error "$cls instvar: instvar is a method of objects (\$self instvar ...)" }
        info {
            switch -- [lindex $args 0] {
                superclass { return $::otcl::supers($cls) }
                heritage { return [lrange [::otcl::heritage $cls] 1 end] }
                instprocs {
                    set pattern [expr {[llength $args] > 1 ? [lindex $args 1] : "*"}]
                    set out {}
                    foreach k [array names ::otcl::methods $cls,*] {
                        set m [lindex [split $k ,] 1]
                        if {[string match $pattern $m]} { lappend out $m }
                    }
                    return $out
                }
                vars { return [dict keys $::otcl::defaults($cls)] }
                subclass {
                    if {[llength $args] == 2} {
                        set c [lindex $args 1]
                        if {![::otcl::is_class $c]} { error "$c is not a class" }
                        return [expr {$cls in [::otcl::heritage $c]}]
                    }
                    set out {}
                    foreach c [array names ::otcl::supers] {
                        if {$cls in $::otcl::supers($c)} { lappend out $c }
                    }
                    return [lsort $out]
                }
                instbody {
                    set m [lindex $args 1]
                    if {![info exists ::otcl::methods($cls,$m)]} { error "$cls has no instproc $m" }
                    return [info body $::otcl::methods($cls,$m)]
                }
                default { error "$cls info [lindex $args 0]: not supported" }
            }
        }
        default {
            if {[info exists ::otcl::methods(class:$cls,$sub)]} {
                return [$::otcl::methods(class:$cls,$sub) $cls $cls $sub {*}$args]
            }
            if {$sub eq "proc"} {
                lassign $args m params body
                set pname ::otcl::m::[incr ::otcl::next_id]
                proc $pname [concat {self class proc} $params] $body
                set ::otcl::methods(class:$cls,$m) $pname
                return ""
            }
            return [::ns2::native $cls $sub {*}$args]
        }
    }
}

# `new Class args`: an object named _o<N>, as ns-2 names them.
proc new {cls args} {
    if {![::otcl::is_class $cls]} { error "new: unknown class $cls" }
    set o _o[incr ::otcl::next_id]
    return [::otcl::create $cls $o {*}$args]
}

proc ::otcl::create {cls o args} {
    set ::otcl::class($o) $cls
    namespace eval ::otcl::o::$o {}
    # ns-2's init-instvar: a bound variable of an ns-2 class starts with the value the most
    # derived class in the precedence list gives it. Other class variables stay the class's.
    set chain [::otcl::heritage $cls]
    foreach c $chain {
        if {![info exists ::otcl::bound($c)]} { continue }
        foreach v $::otcl::bound($c) {
            if {[info exists ::otcl::o::${o}::$v]} { continue }
            foreach d $chain {
                if {[dict exists $::otcl::defaults($d) $v]} {
                    set ::otcl::o::${o}::$v [dict get $::otcl::defaults($d) $v]
                    break
                }
            }
        }
    }
    interp alias {} ::$o {} ::otcl::dispatch $o
    ::ns2::created $o $cls
    ::otcl::call $o [::otcl::heritage $cls] init {*}$args
    return $o
}

proc delete {o} {
    catch {::otcl::dispatch $o destroy}
    ::ns2::deleted $o
    interp alias {} ::$o {}
    namespace delete ::otcl::o::$o
    unset ::otcl::class($o)
    return ""
}

# Calls method m on o, searching the classes in `chain`; a method nobody defines goes to Python.
proc ::otcl::call {o chain m args} {
    foreach c $chain {
        if {[info exists ::otcl::methods($c,$m)]} {
            return [$::otcl::methods($c,$m) $o $c $m {*}$args]
        }
    }
    if {$m eq "init"} { return "" }
    return [::ns2::native $o $m {*}$args]
}

proc ::otcl::dispatch {o m args} {
    if {[info exists ::otcl::methods(obj:$o,$m)]} {
        return [$::otcl::methods(obj:$o,$m) $o $::otcl::class($o) $m {*}$args]
    }
    set chain [::otcl::heritage $::otcl::class($o)]
    foreach c $chain {
        if {[info exists ::otcl::methods($c,$m)]} {
            return [$::otcl::methods($c,$m) $o $c $m {*}$args]
        }
    }
    switch -- $m {
        set {
            set v [lindex $args 0]
            if {[llength $args] == 1} {
                if {[info exists ::otcl::live($o)]} { return [::ns2::getvar $o $v] }
                if {![info exists ::otcl::o::${o}::$v]} { error "$o ($::otcl::class($o)): no variable $v" }
                return [set ::otcl::o::${o}::$v]
            }
            if {[llength $args] != 2} { error "wrong # args: should be \"$o set var ?value?\"" }
            set ::otcl::o::${o}::$v [lindex $args 1]
            if {[info exists ::otcl::watched($o)]} { ::ns2::setvar $o $v [lindex $args 1] }
            return [set ::otcl::o::${o}::$v]
        }
        instvar {
            foreach v $args {
                uplevel 1 [list upvar #0 ::otcl::o::${o}::$v $v]
            }
            return ""
        }
        next {
            upvar 1 class cur proc pm
            set after [lrange $chain [expr {[lsearch -exact $chain $cur] + 1}] end]
            foreach c $after {
                if {[info exists ::otcl::methods($c,$pm)]} {
                    return [$::otcl::methods($c,$pm) $o $c $pm {*}$args]
                }
            }
            if {$pm eq "init" || $pm eq "destroy"} { return "" }
            return [::ns2::native $o $pm {*}$args]
        }
        proc {
            lassign $args pmeth params body
            set pname ::otcl::m::[incr ::otcl::next_id]
            proc $pname [concat {self class proc} $params] $body
            set ::otcl::methods(obj:$o,$pmeth) $pname
            return ""
        }
        info {
            switch -- [lindex $args 0] {
                class { return $::otcl::class($o) }
                vars { return [info vars ::otcl::o::${o}::*] }
                default { error "$o info [lindex $args 0]: not supported" }
            }
        }
        destroy { return "" }
        unset { return [unset ::otcl::o::${o}::[lindex $args 0]] }
        array { return [uplevel 1 [list array [lindex $args 0] ::otcl::o::${o}::[lindex $args 1] {*}[lrange $args 2 end]]] }
        exists { return [info exists ::otcl::o::${o}::[lindex $args 0]] }
        isa {
            return [expr {[lindex $args 0] in $chain}]
        }
        default { return [::ns2::native $o $m {*}$args] }
    }
}

Class Object
