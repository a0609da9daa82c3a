package com.oamcocos.nano

import com.google.mlkit.genai.common.GenAiException
import com.google.mlkit.genai.prompt.ModelPreference
import com.google.mlkit.genai.prompt.ModelReleaseStage
import com.oamcocos.nano.core.AgentErrorCode
import com.oamcocos.nano.core.NanoErrors
import com.oamcocos.nano.core.NanoFailure
import com.oamcocos.nano.core.NanoModelConfig
import org.junit.Assert.assertEquals
import org.junit.Assert.assertNull
import org.junit.Assert.assertSame
import org.junit.Assert.assertTrue
import org.junit.Test
import java.lang.reflect.Modifier

class NanoErrorsTest {
    /** The seed library's ML Kit code → wire code table (docs/bridge-protocol.md repeats it). */
    private val seedTable = mapOf(
        9 to "rate_limited", 27 to "rate_limited", 28 to "rate_limited", 30 to "rate_limited",
        4 to "guardrail_violation", 11 to "guardrail_violation", 15 to "guardrail_violation",
        12 to "context_size_exceeded",
        8 to "model_unavailable", 16 to "model_unavailable", 501 to "model_unavailable", 604 to "model_unavailable", -101 to "model_unavailable",
        7 to "cancelled",
        -100 to "invalid_request", -102 to "invalid_request",
        -104 to "invalid_schema",
        0 to "generation_failed", -103 to "generation_failed", -105 to "generation_failed", -106 to "generation_failed", -107 to "generation_failed",
    )

    @Test
    fun everyMlKitCodeMapsAsTheSeedTableSays() {
        val expected = seedTable + (12345 to "generation_failed")
        for ((code, wire) in expected) assertEquals("ML Kit $code", wire, NanoErrors.codeFor(code).wire)
    }

    @Test
    fun theAgentTurnLimitMapsAsTheTypeScriptRunnerDoes() {
        // genai-agent's MAX_TURNS_EXCEEDED is not in the Prompt API's ErrorCode: checked by itself.
        assertEquals(-112, NanoErrors.MAX_TURNS_EXCEEDED)
        assertEquals("generation_failed", NanoErrors.codeFor(-112).wire)
        assertTrue(NanoErrors.isKnown(-112))
        assertEquals("Gemini Nano: the turn needed more steps than maxTurns allows (ML Kit MAX_TURNS_EXCEEDED, -112)", NanoErrors.messageFor(-112))
        assertEquals(-112, NanoErrors.toRpcError(NanoFailure(-112, "max turns", 0)).mlkitCode)
    }

    /** Every `public static final int` of a class: how Kotlin compiles a companion's const vals. */
    private fun intConstants(vararg classes: Class<*>): Map<String, Int> = classes
        .flatMap { it.declaredFields.toList() }
        .filter { Modifier.isStatic(it.modifiers) && Modifier.isPublic(it.modifiers) && it.type == Int::class.javaPrimitiveType }
        .associate { it.name to it.getInt(null) }

    @Test
    fun everyErrorCodeOfTheMlKitApiIsMappedUnderItsOwnName() {
        val mirror = intConstants(GenAiException.ErrorCode::class.java, GenAiException.ErrorCode.Companion::class.java)
        assertEquals("constants found in the ML Kit ErrorCode mirror", 21, mirror.size)
        val ours = intConstants(NanoErrors::class.java)
        for ((name, value) in mirror) {
            assertEquals("NanoErrors.$name", value, ours[name])
            assertTrue("ML Kit $name ($value) has no entry in the NanoErrors table", NanoErrors.isKnown(value))
            assertTrue("message of $name names it", NanoErrors.messageFor(value).endsWith("(ML Kit $name, $value)"))
            assertEquals("seed table for $name ($value)", seedTable[value], NanoErrors.codeFor(value).wire)
        }
    }

    @Test
    fun modelSelectionValuesMatchTheMlKitApi() {
        assertEquals(ModelPreference.FAST, NanoModelConfig.FAST)
        assertEquals(ModelPreference.FULL, NanoModelConfig.FULL)
        assertEquals(ModelReleaseStage.STABLE, NanoModelConfig.STABLE)
        assertEquals(ModelReleaseStage.PREVIEW, NanoModelConfig.PREVIEW)
    }

    @Test
    fun wireCodesMatchTheTypeScriptNumbering() {
        assertEquals(-32001, AgentErrorCode.MODEL_UNAVAILABLE.rpcCode)
        assertEquals(-32005, AgentErrorCode.RATE_LIMITED.rpcCode)
        assertEquals(-32009, AgentErrorCode.CANCELLED.rpcCode)
        assertEquals(-32012, AgentErrorCode.GENERATION_FAILED.rpcCode)
        assertEquals(12, AgentErrorCode.values().size)
    }

    @Test
    fun statusErrorsGiveUnavailableReasons() {
        assertEquals("aicore_unavailable", NanoErrors.unavailableReason(-101))
        assertEquals("needs_system_update", NanoErrors.unavailableReason(604))
        assertEquals("not_enough_disk_space", NanoErrors.unavailableReason(501))
        assertEquals("model_not_ready", NanoErrors.unavailableReason(8))
        assertEquals("model_not_ready", NanoErrors.unavailableReason(16))
        assertEquals("unknown", NanoErrors.unavailableReason(9))
    }

    @Test
    fun retryDelayBecomesRetryAfterOnlyWhenPositive() {
        val busy = NanoErrors.toRpcError(NanoFailure(9, "busy", 2000))
        assertEquals(AgentErrorCode.RATE_LIMITED, busy.code)
        assertEquals(2000L, busy.retryAfterMs)
        assertEquals(9, busy.mlkitCode)
        assertEquals("Gemini Nano: the per-app inference quota is used up; retry later (ML Kit BUSY, 9)", busy.message)
        assertNull(NanoErrors.toRpcError(NanoFailure(9, "busy", 0)).retryAfterMs)
        assertEquals("Gemini Nano: an unexpected error occurred (ML Kit code, 777)", NanoErrors.messageFor(777))
    }

    @Test
    fun findsTheMlKitFailureUpToEightCausesDeep() {
        val failure = NanoFailure(12, "too large")
        var wrapped: Throwable = failure
        repeat(7) { wrapped = RuntimeException("wrap", wrapped) }
        assertSame(failure, NanoErrors.findFailure(wrapped))
        assertNull(NanoErrors.findFailure(RuntimeException("wrap", wrapped)))
        assertNull(NanoErrors.findFailure(IllegalStateException("plain")))
    }
}
