// English texts of the oam-cocos extension (Creator reads `i18n:oam-cocos.<path>`).
module.exports = {
  builder: {
    enableNano: {
      label: 'Gemini Nano (oam-cocos)',
      description:
        'Add on-device AI to the Android project: copies the oam-cocos native module, raises minSdk to 26 and the Android Gradle Plugin / Gradle when too old, and adds the Kotlin plugin. Every edit is marked and is removed again when this is off.',
    },
  },
};
