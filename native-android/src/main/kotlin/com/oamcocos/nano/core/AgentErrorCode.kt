package com.oamcocos.nano.core

/**
 * The 12 wire names shared with the TypeScript core (src/core/errors.ts), in the same order:
 * the JSON-RPC error number is −32001 − index.
 */
enum class AgentErrorCode(val wire: String) {
    MODEL_UNAVAILABLE("model_unavailable"),
    GUARDRAIL_VIOLATION("guardrail_violation"),
    REFUSAL("refusal"),
    CONTEXT_SIZE_EXCEEDED("context_size_exceeded"),
    RATE_LIMITED("rate_limited"),
    UNSUPPORTED_LANGUAGE("unsupported_language"),
    INVALID_SCHEMA("invalid_schema"),
    TOOL_FAILED("tool_failed"),
    CANCELLED("cancelled"),
    BUSY("busy"),
    INVALID_REQUEST("invalid_request"),
    GENERATION_FAILED("generation_failed");

    val rpcCode: Int get() = -32001 - ordinal
}

/** A failure on its way to JS as a JSON-RPC error object. */
class RpcError(
    val code: AgentErrorCode,
    message: String,
    val mlkitCode: Int? = null,
    val retryAfterMs: Long? = null,
    /** Overrides the error number for JSON-RPC's own errors (−32700, −32600, −32601, −32602). */
    val rpcCode: Int = code.rpcCode,
) : Exception(message)
