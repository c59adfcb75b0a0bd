package dev.loomcrawl.mocksites;

/** Server sizing, measured on a 2-core machine (see the README's farm capacity section). */
final class FarmTuning {
    /** Threads that send delayed responses when they are due. */
    static final int ASYNC_RESPONSE_THREADS = 4;
    /** Jetty threads that read requests and run the responder; they never sleep through a delay. */
    static final int CONTAINER_THREADS = 16;
    /** Pending connections the kernel may queue (it caps this at net.core.somaxconn). */
    static final int ACCEPT_QUEUE = 20_000;

    private FarmTuning() {}
}
