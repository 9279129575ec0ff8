//! The send buffer: application bytes accepted by TCP and not yet acknowledged, bounded by
//! `snd_buffer` (SO_SNDBUF). The application's writes wait outside while it is full
//! (back-pressure), and its close becomes a FIN once every written byte has been accepted.
//!
//! No payload is stored: data byte i (from 0) has sequence number `iss + 1 + i`.

#[derive(Clone, Debug)]
pub struct SendBuffer {
    capacity: Option<u64>,
    /// Bytes accepted into the buffer so far (all time).
    written: u64,
    /// Bytes the application wrote that did not fit yet.
    waiting: u64,
    /// The application closed: FIN after the last waiting byte.
    close_requested: bool,
}

impl SendBuffer {
    pub fn new(capacity: Option<u64>) -> Self {
        SendBuffer { capacity, written: 0, waiting: 0, close_requested: false }
    }

    /// The application writes `n` bytes (u64::MAX: an endless bulk source).
    pub fn write(&mut self, n: u64) {
        self.waiting = self.waiting.saturating_add(n);
    }

    pub fn close(&mut self) {
        self.close_requested = true;
    }

    /// Moves waiting bytes in as far as the buffer allows, given `acked` data bytes already
    /// acknowledged (and so freed). Returns the bytes accepted.
    pub fn fill(&mut self, acked: u64) -> u64 {
        let room = match self.capacity {
            Some(c) => c.saturating_sub(self.written - acked.min(self.written)),
            None => u64::MAX / 4 - self.written,
        };
        let n = self.waiting.min(room);
        self.written += n;
        if self.waiting != u64::MAX {
            self.waiting -= n;
        }
        n
    }

    /// The application has closed its direction.
    pub fn close_requested(&self) -> bool {
        self.close_requested
    }

    /// Data bytes accepted so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Every byte the application wrote is in the buffer and it has closed: the FIN may follow.
    pub fn fin_ready(&self) -> bool {
        self.close_requested && self.waiting == 0
    }
}

#[cfg(test)]
mod tests {
    use super::SendBuffer;

    /// A 3000 B buffer takes 3000 B of a 5000 B write; 1000 B more once 1000 B are acked.
    #[test]
    fn bounded_buffer_applies_back_pressure() {
        let mut b = SendBuffer::new(Some(3000));
        b.write(5000);
        b.close();
        assert_eq!(b.fill(0), 3000);
        assert!(!b.fin_ready());
        assert_eq!(b.fill(0), 0);
        assert_eq!(b.fill(1000), 1000);
        assert_eq!(b.fill(3000), 1000);
        assert!(b.fin_ready());
        assert_eq!(b.written(), 5000);
    }
}
