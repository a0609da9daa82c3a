package com.oamcocos.nano

import com.oamcocos.nano.core.NanoModelConfig
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.junit.runners.Parameterized

/**
 * Replays every recorded exchange in fixtures/bridge/ against the BridgeHost with a fake ML
 * Kit playing the fixture's `mlkit` script: the host must send exactly the recorded
 * native→JS messages, in order, and nothing else. The TypeScript tests replay the same files.
 */
@RunWith(Parameterized::class)
class FixtureReplayTest(private val name: String) {
    companion object {
        @JvmStatic
        @Parameterized.Parameters(name = "{0}")
        fun fixtures(): Collection<Array<Any>> {
            val files = fixtureDir.listFiles { f -> f.name.endsWith(".json") } ?: emptyArray()
            require(files.isNotEmpty()) { "no fixtures in ${fixtureDir.absolutePath}" }
            return files.map { it.name.removeSuffix(".json") }.sorted().map { arrayOf<Any>(it) }
        }
    }

    @Test
    fun replay() {
        val fixture = loadFixture(name)
        val script = fixture.optJSONObject("mlkit") ?: JSONObject()
        HostHarness(script).use { h ->
            val steps = fixture.getJSONArray("steps")
            for (i in 0 until steps.length()) {
                val step = steps.getJSONObject(i)
                val message = step.getJSONObject("message")
                if (step.getString("dir") == "js->native") {
                    h.send(message.toString())
                } else {
                    val actual = h.next()
                    assertTrue("$name step $i: expected $message\n  but the host sent $actual", jsonEquals(message, actual))
                }
            }
            h.assertQuiet()
            assertEquals("$name: ML Kit saw unexpected requests", emptyList<String>(), h.client.mismatches.toList())
            assertEquals("$name: scripted ML Kit generate attempts left unused", 0, h.client.attemptsLeft)
            script.optJSONObject("modelConfig")?.let { want ->
                val expected = NanoModelConfig(
                    preference = if (want.has("preference")) want.getInt("preference") else null,
                    releaseStage = if (want.has("releaseStage")) want.getInt("releaseStage") else null,
                )
                assertEquals("$name: ML Kit client created for the wrong model", listOf(expected), h.configs.distinct())
            }
        }
    }
}
