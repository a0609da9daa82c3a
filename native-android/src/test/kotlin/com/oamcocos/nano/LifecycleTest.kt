package com.oamcocos.nano

import com.oamcocos.nano.android.EngineLifecycle
import com.oamcocos.nano.core.BridgeHost
import com.oamcocos.nano.core.NanoChunk
import com.oamcocos.nano.core.NanoClient
import com.oamcocos.nano.core.NanoDownloadEvent
import com.oamcocos.nano.core.NanoRequest
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger

/**
 * Item 5 of issue 13: nothing is sent unless an engine and a JS context that said `ready`
 * exist, and the work of a dead context is cancelled. The "engine" here is what the real
 * JsbBridge.sendToScript needs; [send] records every delivery and counts each one made after
 * the engine or the context was declared gone (a native crash on a phone).
 */
class LifecycleTest {
    /** Streams a chunk or a progress event every [periodMs] until cancelled; records the cancellations. */
    private class EndlessClient(private val periodMs: Long = 2) : NanoClient {
        val cancelled = AtomicInteger()
        val generating = CountDownLatch(1)
        val downloading = CountDownLatch(1)
        @Volatile var closed = false
        override suspend fun checkStatus() = 3
        override fun download(): Flow<NanoDownloadEvent> = flow {
            emit(NanoDownloadEvent.Started(1_000_000_000))
            var bytes = 0L
            try {
                while (true) {
                    delay(periodMs)
                    bytes += 1000
                    emit(NanoDownloadEvent.Progress(bytes))
                    downloading.countDown()
                }
            } catch (e: CancellationException) {
                cancelled.incrementAndGet()
                throw e
            }
        }
        override suspend fun warmup() = Unit
        override suspend fun baseModelName() = "nano"
        override suspend fun tokenLimit() = 4000
        override suspend fun isSystemPromptAvailable() = true
        override suspend fun isCachingAvailable() = true
        override suspend fun isThinkingAvailable() = false
        override suspend fun countTokens(request: NanoRequest) = 1
        override fun generateStream(request: NanoRequest): Flow<NanoChunk> = flow {
            try {
                while (true) {
                    emit(NanoChunk("x"))
                    generating.countDown()
                    if (periodMs > 0) delay(periodMs) else yield() // yield: a chunk per dispatch, as fast as the host thread goes
                }
            } catch (e: CancellationException) {
                cancelled.incrementAndGet()
                throw e
            }
        }
        override fun close() { closed = true }
    }

    private class Rig(val client: EndlessClient = EndlessClient()) : AutoCloseable {
        val out = LinkedBlockingQueue<String>()
        /** Set by the test right after "the engine/context is gone" returned. */
        val gone = AtomicBoolean(false)
        val sentAfterGone = AtomicInteger()
        private val executor = Executors.newSingleThreadExecutor { r -> Thread(r, "oam-nano-test").apply { isDaemon = true } }
        private val dispatcher = executor.asCoroutineDispatcher()
        val host = BridgeHost({ client }, { message ->
            if (gone.get()) sentAfterGone.incrementAndGet()
            out.add(message)
        }, dispatcher)
        val lifecycle = EngineLifecycle().also { it.host = host }

        fun request(id: Int, method: String, params: JSONObject = JSONObject()) =
            host.onMessage(JSONObject().put("jsonrpc", "2.0").put("id", id).put("method", method).put("params", params).toString())

        fun next(): JSONObject = JSONObject(out.poll(5, TimeUnit.SECONDS) ?: throw AssertionError("nothing sent within 5 s"))

        fun ready() {
            request(1, "ready", JSONObject().put("protocol", 1))
            assertEquals(1, next().getInt("id"))
        }

        /** Waits until no message arrives for [ms]; returns how many arrived meanwhile. */
        fun drainUntilQuiet(ms: Long = 150): Int {
            var n = 0
            while (out.poll(ms, TimeUnit.MILLISECONDS) != null) n++
            return n
        }

        fun awaitCancelled(expected: Int) {
            val until = System.currentTimeMillis() + 5000
            while (client.cancelled.get() < expected && System.currentTimeMillis() < until) Thread.sleep(5)
            assertEquals("ML Kit work cancelled", expected, client.cancelled.get())
        }

        override fun close() {
            runBlocking { withTimeout(5000) { host.close().join() } }
            dispatcher.close()
        }
    }

    private val token = Any()

    @Test
    fun activityDestroyedWithoutFinishingStopsTheStreamAtOnceAndKeepsTheClient() {
        Rig().use { r ->
            r.lifecycle.created(engine = true)
            r.lifecycle.started()
            r.ready()
            r.request(2, "generate", JSONObject().put("prompt", "p"))
            assertTrue(r.client.generating.await(5, TimeUnit.SECONDS))
            Thread.sleep(30) // chunks are flowing
            r.lifecycle.destroying(engine = true, finishing = false, token = token) // a configuration change, or reclaimed
            r.gone.set(true)
            r.awaitCancelled(1)
            r.drainUntilQuiet()
            assertEquals("messages sent after the engine was gone", 0, r.sentAfterGone.get())
            assertFalse("the ML Kit client is kept for the recreated activity", r.client.closed)
            // The recreated activity's new JS context says ready: sending starts again, for it only.
            r.lifecycle.created(engine = true)
            r.gone.set(false)
            r.ready()
            r.request(3, "availability")
            assertEquals(3, r.next().getInt("id"))
        }
    }

    @Test
    fun theGateClosesBeforeEngineGoneReturnsEvenUnderAFastStream() {
        // 40 rounds against a stream with no delay between chunks: a send racing the destroy
        // either finished before engineGone returned or never started.
        repeat(40) { round ->
            Rig(EndlessClient(periodMs = 0)).use { r ->
                r.lifecycle.created(engine = true)
                r.ready()
                r.request(2, "generate", JSONObject().put("prompt", "p"))
                assertTrue(r.client.generating.await(5, TimeUnit.SECONDS))
                r.lifecycle.destroying(engine = true, finishing = true, token = Any())
                r.gone.set(true)
                r.awaitCancelled(1)
                r.drainUntilQuiet(50)
                assertEquals("round $round: messages sent after the engine was gone", 0, r.sentAfterGone.get())
            }
        }
    }

    @Test
    fun jsRestartMidStreamDetachStopsEverythingUntilTheNewContextSaysReady() {
        Rig().use { r ->
            r.lifecycle.created(engine = true)
            r.ready()
            r.request(2, "generate", JSONObject().put("prompt", "old context"))
            assertTrue(r.client.generating.await(5, TimeUnit.SECONDS))
            // game.restart() (and a hot update, which calls it): the transport sends `detach` synchronously first.
            r.host.onMessage("""{"jsonrpc":"2.0","method":"detach"}""")
            r.gone.set(true)
            r.awaitCancelled(1)
            // The new context is booting: its messages before `ready` get no answer, old work none either.
            r.request(7, "availability")
            r.drainUntilQuiet()
            assertEquals("messages sent while no context was ready", 0, r.sentAfterGone.get())
            r.gone.set(false)
            r.ready()
            r.request(8, "availability")
            val answer = r.next()
            assertEquals(8, answer.getInt("id"))
            assertEquals(0, r.drainUntilQuiet())
        }
    }

    @Test
    fun jsRestartWithoutDetachANewReadyDropsTheOldStreamUnanswered() {
        Rig().use { r ->
            r.lifecycle.created(engine = true)
            r.ready()
            r.request(2, "generate", JSONObject().put("prompt", "old context"))
            assertTrue(r.client.generating.await(5, TimeUnit.SECONDS))
            r.request(1, "ready", JSONObject().put("protocol", 1))
            r.awaitCancelled(1)
            // Everything after the new ready's answer is for the new context; nothing of id 2 follows it.
            val rest = mutableListOf<JSONObject>()
            while (true) {
                val m = JSONObject(r.out.poll(300, TimeUnit.MILLISECONDS) ?: break)
                rest.add(m)
            }
            val readyAt = rest.indexOfFirst { it.optInt("id") == 1 }
            assertTrue("the new ready is answered", readyAt >= 0)
            assertEquals(emptyList<JSONObject>(), rest.drop(readyAt + 1))
        }
    }

    @Test
    fun downloadInProgressWhenTheActivityFinishesNoProgressAfterAndTheClientIsClosed() {
        Rig().use { r ->
            r.lifecycle.created(engine = true)
            r.ready()
            r.request(2, "download")
            assertTrue(r.client.downloading.await(5, TimeUnit.SECONDS))
            assertEquals("download/progress", r.next().getString("method"))
            r.lifecycle.destroying(engine = true, finishing = true, token = token)
            r.gone.set(true)
            r.awaitCancelled(1)
            r.drainUntilQuiet()
            assertEquals("progress sent after the engine was gone", 0, r.sentAfterGone.get())
            val until = System.currentTimeMillis() + 5000
            while (!r.client.closed && System.currentTimeMillis() < until) Thread.sleep(5)
            assertTrue("the ML Kit client is closed after the last Cocos activity finished", r.client.closed)
        }
    }

    @Test
    fun otherActivitiesDoNotCountAsTheEngineAndBothDestroyCallbacksCountOnce() {
        Rig().use { r ->
            r.lifecycle.created(engine = true)
            r.lifecycle.created(engine = false) // a billing or permission activity
            r.ready()
            r.lifecycle.destroying(engine = false, finishing = true, token = Any())
            r.request(2, "availability")
            assertEquals(2, r.next().getInt("id"))
            r.lifecycle.destroying(engine = true, finishing = false, token = token) // onActivityPreDestroyed
            r.lifecycle.destroying(engine = true, finishing = false, token = token) // onActivityDestroyed, same activity
            r.gone.set(true)
            r.request(3, "availability")
            assertEquals(0, r.drainUntilQuiet())
            assertEquals(0, r.sentAfterGone.get())
        }
    }

    @Test
    fun visibleWhilePausedNotAfterStopped() {
        val l = EngineLifecycle()
        assertFalse(l.isVisible())
        l.started() // onStart; a dialog on top pauses it, which changes nothing here
        assertTrue("paused but visible still counts as foreground", l.isVisible())
        l.stopped()
        assertFalse(l.isVisible())
    }

    @Test
    fun theEngineActivityIsFoundByItsRealClassName() {
        open class Base
        class Sub : Base()
        assertTrue(EngineLifecycle.isEngineActivity(Sub::class.java, Base::class.java.name))
        assertFalse(EngineLifecycle.isEngineActivity(String::class.java))
        // The name is the real class's: com/cocos/lib/CocosActivity.java of the engine this run compiled against.
        val source = File(System.getProperty("oam.cocosJava") ?: error("oam.cocosJava not set"), "CocosActivity.java").readText()
        assertTrue(source.contains("package com.cocos.lib;"))
        assertTrue(Regex("""public class CocosActivity\b""").containsMatchIn(source))
        assertEquals("com.cocos.lib.CocosActivity", EngineLifecycle.COCOS_ACTIVITY)
    }
}
