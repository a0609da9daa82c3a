package com.oamcocos.nano

import com.oamcocos.nano.core.AgentErrorCode
import com.oamcocos.nano.core.NanoErrors
import com.oamcocos.nano.core.NanoFailure
import org.junit.Assert.assertEquals
import org.junit.Assert.assertNull
import org.junit.Assert.assertSame
import org.junit.Test

class NanoErrorsTest {
    @Test
    fun everyMlKitCodeMapsAsTheSeedTableSays() {
        val expected = mapOf(
            9 to "rate_limited", 27 to "rate_limited", 28 to "rate_limited", 30 to "rate_limited",
            4 to "guardrail_violation", 11 to "guardrail_violation", 15 to "guardrail_violation",
            12 to "context_size_exceeded",
            8 to "model_unavailable", 16 to "model_unavailable", 501 to "model_unavailable", 604 to "model_unavailable", -101 to "model_unavailable",
            7 to "cancelled",
            -100 to "invalid_request", -102 to "invalid_request",
            -104 to "invalid_schema",
            0 to "generation_failed", -103 to "generation_failed", -105 to "generation_failed", -106 to "generation_failed", -107 to "generation_failed",
            12345 to "generation_failed",
        )
        for ((code, wire) in expected) assertEquals("ML Kit $code", wire, NanoErrors.codeFor(code).wire)
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
