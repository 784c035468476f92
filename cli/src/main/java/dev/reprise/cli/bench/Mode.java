package dev.reprise.cli.bench;

import dev.reprise.core.config.Order;

/** How one run executes the workload; an iteration runs every mode once, in this order. */
public enum Mode {
    PLAIN("plain", null, false),
    RECORD_TO("record TO", Order.TO, false),
    RECORD_RTO("record RTO", Order.RTO, false),
    REPLAY_TO("replay TO", Order.TO, true),
    REPLAY_RTO("replay RTO", Order.RTO, true);

    private final String label;
    private final Order order;
    private final boolean replay;

    Mode(String label, Order order, boolean replay) {
        this.label = label;
        this.order = order;
        this.replay = replay;
    }

    public String label() {
        return label;
    }

    /** The recording's ordering, {@code null} for a plain run. */
    public Order order() {
        return order;
    }

    public boolean replay() {
        return replay;
    }

    public boolean record() {
        return order != null && !replay;
    }

    /** The record mode whose recording this replay mode replays. */
    public Mode recording() {
        return order == Order.TO ? RECORD_TO : RECORD_RTO;
    }
}
