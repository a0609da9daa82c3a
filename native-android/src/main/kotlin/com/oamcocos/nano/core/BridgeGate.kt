package com.oamcocos.nano.core

/**
 * The last check before a message leaves for JS. Cocos's `JsbBridge.sendToScript` is not safe
 * without a live engine (it dereferences the current application unchecked in release builds,
 * cocos-engine issue #18223) nor without a JS context that has set `jsb.bridge.onNative` (the
 * queued call uses the bridge instance unchecked). So a message is handed to [deliver] only
 * while
 * - the engine is alive: [engineGone] closes the gate (the Cocos activity is being destroyed);
 * - a JS context has said `ready` ([contextReady]) and not said `detach` ([contextGone]);
 * - the message was produced for that context: every open/close starts a new epoch, and work
 *   carries the epoch it was started for.
 *
 * The check and the delivery happen under one lock, and the state changes take the same lock:
 * once [engineGone] or [contextGone] has returned, no delivery is running and none will start
 * for the old epoch. `ready`/`detach` are read on the game thread as they arrive (see
 * BridgeHost.onMessage), so the gate follows the JS side in the order JS spoke.
 *
 * Holding the lock across [deliver] is safe: `JsbBridge.sendToScript` only queues the message
 * under the scheduler's mutex, which Cocos does not hold while it runs queued functions on the
 * game thread, so a JS call into [contextReady] from there waits for the queueing at most.
 */
class BridgeGate(private val deliver: (String) -> Unit) {
    private val lock = Any()
    private var engineAlive = false
    private var contextOpen = false
    private var epoch = 0
    private var dropped = 0L
    private var delivered = 0L

    /** A JS context said `ready`: it and the engine exist. Returns the new context's epoch. */
    fun contextReady(): Int = synchronized(lock) {
        engineAlive = true
        contextOpen = true
        ++epoch
    }

    /** The JS context said `detach` (it is about to be torn down). Returns the new, closed epoch. */
    fun contextGone(): Int = synchronized(lock) {
        contextOpen = false
        ++epoch
    }

    /** The engine is going away (the Cocos activity is destroyed, finishing or not). */
    fun engineGone(): Int = synchronized(lock) {
        engineAlive = false
        contextOpen = false
        ++epoch
    }

    /** The epoch messages arriving now belong to. */
    val currentEpoch: Int get() = synchronized(lock) { epoch }

    /** True while work of [epochOfWork] may still send. */
    fun isOpen(epochOfWork: Int): Boolean = synchronized(lock) { engineAlive && contextOpen && epochOfWork == epoch }

    /** Delivers [message] if [epochOfWork] is the live context's; returns whether it was delivered. */
    fun send(epochOfWork: Int, message: String): Boolean = synchronized(lock) {
        if (!(engineAlive && contextOpen && epochOfWork == epoch)) {
            dropped++
            return false
        }
        delivered++
        try {
            deliver(message)
        } catch (_: Throwable) {
            // A bridge that cannot deliver has nobody to tell.
        }
        true
    }

    /** Messages refused because their engine or context was gone (for tests and logs). */
    val droppedCount: Long get() = synchronized(lock) { dropped }
    val deliveredCount: Long get() = synchronized(lock) { delivered }
}
