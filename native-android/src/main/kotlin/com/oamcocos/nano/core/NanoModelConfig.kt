package com.oamcocos.nano.core

import org.json.JSONObject

/**
 * Which Gemini Nano model the ML Kit client is created for (ML Kit's ModelConfig): null fields
 * leave ML Kit's default (stable release stage; FULL on stable, FAST on preview).
 */
data class NanoModelConfig(
    /** ML Kit ModelPreference: [FAST] or [FULL]. */
    val preference: Int? = null,
    /** ML Kit ModelReleaseStage: [STABLE] or [PREVIEW]. */
    val releaseStage: Int? = null,
) {
    companion object {
        const val STABLE = 0
        const val PREVIEW = 1
        const val FAST = 1
        const val FULL = 2

        /** Reads `preference` ("fast" | "full") and `releaseStage` ("stable" | "preview") from `ready` params. */
        fun parse(params: JSONObject): NanoModelConfig = NanoModelConfig(
            preference = when (val p = params.optStringOrNull("preference")) {
                null -> null
                "fast" -> FAST
                "full" -> FULL
                else -> throw BridgeMessages.invalidParams("'preference' must be \"fast\" or \"full\", not \"$p\"")
            },
            releaseStage = when (val r = params.optStringOrNull("releaseStage")) {
                null -> null
                "stable" -> STABLE
                "preview" -> PREVIEW
                else -> throw BridgeMessages.invalidParams("'releaseStage' must be \"stable\" or \"preview\", not \"$r\"")
            },
        )
    }
}
