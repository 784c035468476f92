package dev.reprise.core.config;

/** How synchronization is ordered in a recording (docs/decisions/0001-relaxed-total-order.md). */
public enum Order {
    /** Relaxed total order: an acquisition by the resource's last owner is not ordered. */
    RTO,
    /** Total order: every acquisition takes a turn in one global sequence. */
    TO
}
