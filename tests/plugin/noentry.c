/* A shared library without the plugin entry point: byoc --plugin must
 * refuse it with a clear message (tests/plugin/plugin.sh). */
int byoc_plugin_registr(void);
int byoc_plugin_registr(void) { return 0; }
