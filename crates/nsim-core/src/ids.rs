//! Small integer ids for every component, so the hot path indexes vectors instead of hashing.

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(pub u32);
        impl $name {
            pub const NONE: $name = $name(u32::MAX);
            #[inline]
            pub fn idx(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(/// A node (host or router).
    NodeId);
id_type!(/// One direction of a link: transmitter, queue, error model and propagation pipe.
    LinkId);
id_type!(/// A transport endpoint attached to a node (a source or a sink).
    AgentId);
id_type!(/// A flow: one source agent and its sink.
    FlowId);
