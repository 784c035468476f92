package dev.reprise.cli.conformance;

import java.util.List;

/** One program on one JDK: the outcome of each ordering, in the order they ran. */
public record Row(Program program, Jdk jdk, List<Outcome> outcomes) {
    public boolean ok() {
        return outcomes.stream().allMatch(Outcome::ok);
    }

    /** {@code ok}, or each failing ordering's first reason. */
    public String result() {
        if (ok()) {
            return "ok";
        }
        StringBuilder b = new StringBuilder();
        for (Outcome o : outcomes) {
            if (!o.ok()) {
                b.append(b.isEmpty() ? "" : "; ").append(o.order().name().toLowerCase(java.util.Locale.ROOT))
                        .append(": ").append(o.reason());
            }
        }
        return b.toString();
    }
}
