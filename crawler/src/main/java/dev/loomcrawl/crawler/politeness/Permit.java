package dev.loomcrawl.crawler.politeness;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/** The gates one request holds, from {@link HostGates#tryEnter} to {@link HostGates#exit}. */
public final class Permit {
    final Target target;
    private volatile Gate[] gates;
    /** For each gate held from the start, its requests awaiting answers when this one started, this one included. */
    private final int[] loads;
    private final AtomicBoolean answering = new AtomicBoolean();

    Permit(Target target, Gate[] gates, int[] loads) {
        this.target = target;
        this.gates = gates;
        this.loads = loads;
    }

    /** The load of gate {@code gate} ({@link Reply#load}); 0 for a gate that came into force in flight. */
    int load(int gate) {
        return gate < loads.length ? loads[gate] : 0;
    }

    /** Whether this is the first word that the request's answer has begun to come (its gates count it off once). */
    boolean firstAnswer() {
        return answering.compareAndSet(false, true);
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
