package com.oamcocos.nano.core

import org.json.JSONObject

/** Builds the JSON-RPC 2.0 messages the native side sends (org.json, as shipped in Android). */
object BridgeMessages {
    /** The one jsbBridgeWrapper event name, used in both directions. */
    const val EVENT = "oam-cocos"
    const val PROTOCOL_VERSION = 1

    const val PARSE_ERROR = -32700
    const val INVALID_MESSAGE = -32600
    const val METHOD_NOT_FOUND = -32601
    const val INVALID_PARAMS = -32602

    fun result(id: Any, result: JSONObject): String =
        JSONObject().put("jsonrpc", "2.0").put("id", id).put("result", result).toString()

    fun notification(method: String, params: JSONObject): String =
        JSONObject().put("jsonrpc", "2.0").put("method", method).put("params", params).toString()

    fun error(id: Any?, error: RpcError): String {
        val data = JSONObject().put("code", error.code.wire)
        error.mlkitCode?.let { data.put("mlkitCode", it) }
        error.retryAfterMs?.let { data.put("retryAfterMs", it) }
        val body = JSONObject().put("code", error.rpcCode).put("message", error.message ?: error.code.wire).put("data", data)
        return JSONObject().put("jsonrpc", "2.0").put("id", id ?: JSONObject.NULL).put("error", body).toString()
    }

    fun invalidParams(message: String) = RpcError(AgentErrorCode.INVALID_REQUEST, message, rpcCode = INVALID_PARAMS)
}

/** Typed reads from a params object; null members count as absent. */
internal fun JSONObject.optStringOrNull(key: String): String? {
    if (!has(key) || isNull(key)) return null
    return opt(key) as? String ?: throw BridgeMessages.invalidParams("'$key' must be a string")
}

internal fun JSONObject.optNumberOrNull(key: String): Double? {
    if (!has(key) || isNull(key)) return null
    val n = opt(key) as? Number ?: throw BridgeMessages.invalidParams("'$key' must be a number")
    val d = n.toDouble()
    if (d.isNaN() || d.isInfinite()) throw BridgeMessages.invalidParams("'$key' must be a finite number")
    return d
}

internal fun JSONObject.optBooleanOrNull(key: String): Boolean? {
    if (!has(key) || isNull(key)) return null
    return opt(key) as? Boolean ?: throw BridgeMessages.invalidParams("'$key' must be a boolean")
}
