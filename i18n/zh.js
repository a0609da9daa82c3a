// oam-cocos 扩展的中文文本（Creator 通过 `i18n:oam-cocos.<路径>` 读取）。
module.exports = {
  builder: {
    enableNano: {
      label: 'Gemini Nano（oam-cocos）',
      description:
        '为 Android 工程加入端侧 AI：复制 oam-cocos 原生模块，将 minSdk 提高到 26，在 Android Gradle 插件 / Gradle 版本过旧时升级，并加入 Kotlin 插件。所有修改都带有标记，关闭此选项后会被移除。',
    },
  },
};
