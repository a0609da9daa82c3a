package com.oamcocos.nano.core

/**
 * Cuts a stream of ML Kit text pieces into chunks that are each valid UTF-16. Cocos's bridge
 * silently turns a message holding half a surrogate pair into an empty string, so a piece
 * ending on a high surrogate keeps that char back until the next piece brings its partner.
 * Stray halves (never expected from ML Kit) become U+FFFD rather than poisoning a message.
 */
class SurrogateSafeChunker {
    private var heldHigh: Char? = null

    /** True while a high surrogate waits for its partner. */
    val isHolding: Boolean get() = heldHigh != null

    /** The text to send now for [piece] (may be empty). */
    fun push(piece: String): String {
        if (piece.isEmpty()) return ""
        val joined = StringBuilder(piece.length + 1)
        heldHigh?.let { joined.append(it) }
        heldHigh = null
        joined.append(piece)
        if (Character.isHighSurrogate(joined[joined.length - 1])) {
            heldHigh = joined[joined.length - 1]
            joined.setLength(joined.length - 1)
        }
        return repairLoneSurrogates(joined)
    }

    /** Call at the end of the stream: a high surrogate still held back has no partner any more. */
    fun finish(): String {
        if (heldHigh == null) return ""
        heldHigh = null
        return REPLACEMENT.toString()
    }

    companion object {
        const val REPLACEMENT = '\uFFFD'

        fun repairLoneSurrogates(text: CharSequence): String {
            val out = StringBuilder(text.length)
            var i = 0
            while (i < text.length) {
                val c = text[i]
                if (Character.isHighSurrogate(c) && i + 1 < text.length && Character.isLowSurrogate(text[i + 1])) {
                    out.append(c).append(text[i + 1])
                    i += 2
                    continue
                }
                out.append(if (Character.isSurrogate(c)) REPLACEMENT else c)
                i++
            }
            return out.toString()
        }
    }
}
