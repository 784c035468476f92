package dev.reprise.cli.conformance;

import dev.reprise.core.config.Order;

/**
 * How one program fared on one JDK with one ordering: {@code reason} is {@code null} if it recorded
 * and every replay reproduced the recording, else the first thing that went wrong.
 */
public record Outcome(Order order, String reason) {
    public boolean ok() {
        return reason == null;
    }
}
