package dev.loomcrawl.crawler.politeness;

import java.util.Arrays;

/** The gates one request holds, from {@link HostGates#tryEnter} to {@link HostGates#exit}. */
public final class Permit {
    final Target target;
    private volatile Gate[] gates;

    Permit(Target target, Gate[] gates) {
        this.target = target;
        this.gates = gates;
    }

    Gate[] gates() {
        return gates;
    }

    /** A gate whose level came into force while this request was in flight: it counts there too. */
    void add(Gate gate) {
        Gate[] held = Arrays.copyOf(gates, gates.length + 1);
        held[held.length - 1] = gate;
        gates = held;
    }
}
