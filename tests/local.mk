# Tests beyond the per-module unit tests of runtime/local.mk.
TEST_EXTENSIONS = .sh
AM_TESTS_ENVIRONMENT = \
	BYOCC='$(abs_top_builddir)/compiler/byocc$(EXEEXT)'; \
	BYOC='$(abs_top_builddir)/cli/byoc$(EXEEXT)'; export BYOC; \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	BYOC_DATADIR='$(abs_top_srcdir)/lib'; \
	BYOC_SAN_FLAGS='$(SAN_FLAGS)'; \
	export BYOCC top_srcdir top_builddir BYOC_DATADIR BYOC_SAN_FLAGS;

# Golden diagnostics and golden generated code; the CLI's info command.
TESTS += tests/golden/diag.sh tests/golden/emit.sh tests/cli/info.sh
EXTRA_DIST += tests/cli/info.sh tests/cli/info_mobilenet_v2_block.golden \
	tests/cli/info_resnet_bottleneck.golden tests/cli/info_transformer_encoder.golden

# The partitioning commands on the example models, every output read back.
TESTS += tests/cli/partition.sh
# Models past the readers' old limits (wide tuples and calls, nested tuple
# types) go through info, partition and the Relay writer.
TESTS += tests/cli/limits.sh
EXTRA_DIST += tests/cli/limits.sh
TESTS += tests/cli/control_flow.sh
EXTRA_DIST += tests/cli/control_flow.sh
TESTS += tests/cli/oom.sh
EXTRA_DIST += tests/cli/oom.sh
# QDQ models partitioned with CMSIS-NN and Ethos-U (tests/onnx/gen_qdq).
TESTS += tests/cli/qdq.sh
EXTRA_DIST += tests/cli/qdq.sh
EXTRA_DIST += tests/cli/partition.sh tests/cli/targets.golden \
	tests/cli/partition_resnet_bottleneck.golden \
	tests/cli/partition_mobilenet_v2_block.golden \
	tests/cli/partition_transformer_encoder.golden \
	tests/cli/compare_resnet_bottleneck.golden \
	tests/cli/compare_mobilenet_v2_block.golden \
	tests/cli/compare_transformer_encoder.golden \
	tests/cli/explain_transformer_3.golden tests/cli/explain_transformer_1.golden \
	tests/cli/explain_transformer_9.golden tests/cli/explain_resnet_conv.golden \
	tests/cli/conv_fp16.relay tests/cli/explain_fp16.golden \
	tests/cli/explain_fp16_option.golden
# Listed one by one: a folder in EXTRA_DIST would also ship test logs.
EXTRA_DIST += tests/golden/diag.sh tests/golden/emit.sh \
	tests/golden/diag/attribute_of_wildcard.byoc \
	tests/golden/diag/attribute_of_wildcard.err \
	tests/golden/diag/attr_alternatives.byoc \
	tests/golden/diag/attr_alternatives.err \
	tests/golden/diag/clause_warnings.byoc \
	tests/golden/diag/clause_warnings.err \
	tests/golden/diag/predicate_macro.byoc \
	tests/golden/diag/predicate_macro.err \
	tests/golden/diag/quoted_name.byoc \
	tests/golden/diag/quoted_name.err \
	tests/golden/diag/quoted_name_syntax.byoc \
	tests/golden/diag/quoted_name_syntax.err \
	tests/golden/diag/strings_sets.byoc \
	tests/golden/diag/strings_sets.err \
	tests/golden/diag/attribute_type.byoc \
	tests/golden/diag/attribute_type.err \
	tests/golden/diag/bound_twice.byoc \
	tests/golden/diag/bound_twice.err \
	tests/golden/diag/const_division_by_zero.byoc \
	tests/golden/diag/const_division_by_zero.err \
	tests/golden/diag/const_integer_overflow.byoc \
	tests/golden/diag/const_integer_overflow.err \
	tests/golden/diag/cycle_b.byoc \
	tests/golden/diag/description_too_large.byoc \
	tests/golden/diag/description_too_large.err \
	tests/golden/diag/device_and_link.byoc \
	tests/golden/diag/device_and_link.err \
	tests/golden/diag/device_occupancy.byoc \
	tests/golden/diag/device_occupancy.err \
	tests/golden/diag/duplicate_declaration.byoc \
	tests/golden/diag/duplicate_declaration.err \
	tests/golden/diag/expression_too_deep.byoc \
	tests/golden/diag/expression_too_deep.err \
	tests/golden/diag/field_index_out_of_range.byoc \
	tests/golden/diag/field_index_out_of_range.err \
	tests/golden/diag/float_out_of_range.byoc \
	tests/golden/diag/float_out_of_range.err \
	tests/golden/diag/for_duplicate_names.byoc \
	tests/golden/diag/for_family_too_large.byoc \
	tests/golden/diag/for_family_too_large.err \
	tests/golden/diag/for_family_variables.byoc \
	tests/golden/diag/for_family_variables.err \
	tests/golden/diag/for_template_name.byoc tests/golden/diag/for_template_name.err \
	tests/golden/diag/for_duplicate_names.err \
	tests/golden/diag/generated_code_too_large.byoc \
	tests/golden/diag/generated_code_too_large.err \
	tests/golden/diag/import_cycle.byoc \
	tests/golden/diag/import_cycle.err \
	tests/golden/diag/import_not_regular.byoc \
	tests/golden/diag/import_not_regular.err \
	tests/golden/diag/import_too_deep.byoc \
	tests/golden/diag/import_too_deep.err \
	tests/golden/diag/import_too_deep/f1.byoc tests/golden/diag/import_too_deep/f2.byoc tests/golden/diag/import_too_deep/f3.byoc \
	tests/golden/diag/import_too_deep/f4.byoc tests/golden/diag/import_too_deep/f5.byoc tests/golden/diag/import_too_deep/f6.byoc \
	tests/golden/diag/import_too_deep/f7.byoc tests/golden/diag/import_too_deep/f8.byoc tests/golden/diag/import_too_deep/f9.byoc \
	tests/golden/diag/import_too_deep/f10.byoc tests/golden/diag/import_too_deep/f11.byoc tests/golden/diag/import_too_deep/f12.byoc \
	tests/golden/diag/import_too_deep/f13.byoc tests/golden/diag/import_too_deep/f14.byoc tests/golden/diag/import_too_deep/f15.byoc \
	tests/golden/diag/import_too_deep/f16.byoc tests/golden/diag/import_too_deep/f17.byoc tests/golden/diag/import_too_deep/f18.byoc \
	tests/golden/diag/import_too_deep/f19.byoc tests/golden/diag/import_too_deep/f20.byoc tests/golden/diag/import_too_deep/f21.byoc \
	tests/golden/diag/import_too_deep/f22.byoc tests/golden/diag/import_too_deep/f23.byoc tests/golden/diag/import_too_deep/f24.byoc \
	tests/golden/diag/import_too_deep/f25.byoc tests/golden/diag/import_too_deep/f26.byoc tests/golden/diag/import_too_deep/f27.byoc \
	tests/golden/diag/import_too_deep/f28.byoc tests/golden/diag/import_too_deep/f29.byoc tests/golden/diag/import_too_deep/f30.byoc \
	tests/golden/diag/import_too_deep/f31.byoc tests/golden/diag/import_too_deep/f32.byoc tests/golden/diag/import_too_deep/f33.byoc \
	tests/golden/diag/import_too_deep/f34.byoc tests/golden/diag/import_too_deep/f35.byoc tests/golden/diag/import_too_deep/f36.byoc \
	tests/golden/diag/import_too_deep/f37.byoc tests/golden/diag/import_too_deep/f38.byoc tests/golden/diag/import_too_deep/f39.byoc \
	tests/golden/diag/import_too_deep/f40.byoc tests/golden/diag/import_too_deep/f41.byoc tests/golden/diag/import_too_deep/f42.byoc \
	tests/golden/diag/import_too_deep/f43.byoc tests/golden/diag/import_too_deep/f44.byoc tests/golden/diag/import_too_deep/f45.byoc \
	tests/golden/diag/import_too_deep/f46.byoc tests/golden/diag/import_too_deep/f47.byoc tests/golden/diag/import_too_deep/f48.byoc \
	tests/golden/diag/import_too_deep/f49.byoc tests/golden/diag/import_too_deep/f50.byoc tests/golden/diag/import_too_deep/f51.byoc \
	tests/golden/diag/import_too_deep/f52.byoc tests/golden/diag/import_too_deep/f53.byoc tests/golden/diag/import_too_deep/f54.byoc \
	tests/golden/diag/import_too_deep/f55.byoc tests/golden/diag/import_too_deep/f56.byoc tests/golden/diag/import_too_deep/f57.byoc \
	tests/golden/diag/import_too_deep/f58.byoc tests/golden/diag/import_too_deep/f59.byoc tests/golden/diag/import_too_deep/f60.byoc \
	tests/golden/diag/import_too_deep/f61.byoc tests/golden/diag/import_too_deep/f62.byoc tests/golden/diag/import_too_deep/f63.byoc \
	tests/golden/diag/import_too_deep/f64.byoc \
	tests/golden/diag/import_unreadable.byoc \
	tests/golden/diag/import_unreadable.err \
	tests/golden/diag/let_arity.byoc \
	tests/golden/diag/let_arity.err \
	tests/golden/diag/let_expansion_steps.byoc \
	tests/golden/diag/let_expansion_steps.err \
	tests/golden/diag/let_expansion_too_deep.byoc \
	tests/golden/diag/let_expansion_too_deep.err \
	tests/golden/diag/let_expansion_too_large.byoc \
	tests/golden/diag/let_expansion_too_large.err \
	tests/golden/diag/let_free_name.byoc \
	tests/golden/diag/let_free_name.err \
	tests/golden/diag/lexical_errors.byoc \
	tests/golden/diag/lexical_errors.err \
	tests/golden/diag/lower_pass_point.byoc \
	tests/golden/diag/lower_pass_point.err \
	tests/golden/diag/lower_pass_twice.byoc \
	tests/golden/diag/lower_pass_twice.err \
	tests/golden/diag/lower_unknown_pass.byoc \
	tests/golden/diag/lower_unknown_pass.err \
	tests/golden/diag/lower_wrong_extern_kind.byoc \
	tests/golden/diag/lower_wrong_extern_kind.err \
	tests/golden/diag/mini_ops.byoc \
	tests/golden/diag/missing_import.byoc \
	tests/golden/diag/missing_import.err \
	tests/golden/diag/name_too_long.byoc \
	tests/golden/diag/name_too_long.err \
	tests/golden/diag/nesting_too_deep_for_parser.byoc \
	tests/golden/diag/nesting_too_deep_for_parser.err \
	tests/golden/diag/op_comparison.byoc \
	tests/golden/diag/op_comparison.err \
	tests/golden/diag/op_declaration.byoc \
	tests/golden/diag/op_declaration.err \
	tests/golden/diag/option_default_type.byoc \
	tests/golden/diag/option_default_type.err \
	tests/golden/diag/option_inheritance.byoc \
	tests/golden/diag/option_inheritance.err \
	tests/golden/diag/parent_cycle.byoc \
	tests/golden/diag/parent_cycle.err \
	tests/golden/diag/pattern_shapes.byoc \
	tests/golden/diag/pattern_shapes.err \
	tests/golden/diag/pattern_too_deep.byoc \
	tests/golden/diag/pattern_too_deep.err \
	tests/golden/diag/pattern_too_large.byoc \
	tests/golden/diag/pattern_too_large.err \
	tests/golden/diag/predicate_type_mismatch.byoc \
	tests/golden/diag/predicate_type_mismatch.err \
	tests/golden/diag/refine_too_deep.byoc \
	tests/golden/diag/refine_too_deep.err \
	tests/golden/diag/runtime_twice.byoc \
	tests/golden/diag/runtime_twice.err \
	tests/golden/diag/runtime_value.byoc \
	tests/golden/diag/runtime_value.err \
	tests/golden/diag/syntax_error.byoc \
	tests/golden/diag/syntax_error.err \
	tests/golden/diag/target_settings.byoc \
	tests/golden/diag/target_settings.err \
	tests/golden/diag/template_name_too_long.byoc \
	tests/golden/diag/template_name_too_long.err \
	tests/golden/diag/too_many_errors.byoc \
	tests/golden/diag/too_many_errors.err \
	tests/golden/diag/type_too_deep.byoc \
	tests/golden/diag/type_too_deep.err \
	tests/golden/diag/typed_constant_out_of_range.byoc \
	tests/golden/diag/typed_constant_out_of_range.err \
	tests/golden/diag/unknown_attribute.byoc \
	tests/golden/diag/unknown_attribute.err \
	tests/golden/diag/unknown_function.byoc \
	tests/golden/diag/unknown_function.err \
	tests/golden/diag/unknown_name.byoc \
	tests/golden/diag/unknown_name.err \
	tests/golden/diag/unknown_op.byoc \
	tests/golden/diag/unknown_op.err \
	tests/golden/diag/unknown_parent.byoc \
	tests/golden/diag/unknown_parent.err \
	tests/golden/diag/unknown_target_option.byoc \
	tests/golden/diag/unknown_target_option.err \
	tests/golden/diag/wrong_arg_count.byoc \
	tests/golden/diag/wrong_arg_count.err \
	tests/golden/emit/tour_gpu.c.golden \
	tests/golden/emit/tour_gpu.h.golden \
	tests/golden/emit/tour_npu.c.golden \
	tests/golden/emit/tour_npu.h.golden

# Compile-and-run: the generated code of the tour examples, built strictly.
STRICT_CFLAGS = -std=c11 -Wall -Wextra -Werror -pedantic
check_PROGRAMS += tests/run/test_tour
TESTS += tests/run/test_tour
nodist_tests_run_test_tour_SOURCES = examples/tour_gpu.c examples/tour_npu.c
tests_run_test_tour_SOURCES = tests/run/test_tour.c examples/tour_npu_extern.c
tests_run_test_tour_CPPFLAGS = -I$(top_srcdir)/include -I$(top_builddir)/include \
	-I$(top_builddir)/examples
tests_run_test_tour_CFLAGS = $(STRICT_CFLAGS) $(CHECK_CFLAGS)
tests_run_test_tour_LDADD = runtime/libbyoc.la $(CHECK_LIBS)
$(tests_run_test_tour_OBJECTS): $(EXAMPLE_GEN)

# The same with clang, when it is installed.
if HAVE_CLANG
check_SCRIPTS = tests/run/test_tour_clang$(EXEEXT)
TESTS += tests/run/test_tour_clang$(EXEEXT)
CLEANFILES += tests/run/test_tour_clang$(EXEEXT) tests/run/clang/*.o
endif
# clang compiles the generated code and the driver; the link uses $(CC), so
# that a sanitized build links the sanitizer runtime libbyoc was built with.
TOUR_CLANG_SRC = $(srcdir)/tests/run/test_tour.c examples/tour_gpu.c examples/tour_npu.c \
	$(srcdir)/examples/tour_npu_extern.c
tests/run/test_tour_clang$(EXEEXT): $(TOUR_CLANG_SRC) $(EXAMPLE_GEN) runtime/libbyoc.la
	@$(MKDIR_P) tests/run/clang
	$(AM_V_CC)for f in $(TOUR_CLANG_SRC); do \
	  $(CLANG) $(STRICT_CFLAGS) $(tests_run_test_tour_CPPFLAGS) $(CHECK_CFLAGS) \
	    -c -o tests/run/clang/`basename $$f .c`.o $$f || exit 1; \
	done
	$(AM_V_CCLD)$(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CC) $(CFLAGS) $(LDFLAGS) -o $@ \
	  tests/run/clang/test_tour.o tests/run/clang/tour_gpu.o tests/run/clang/tour_npu.o \
	  tests/run/clang/tour_npu_extern.o runtime/libbyoc.la $(CHECK_LIBS)


# Unit tests of byocc's phases, against its convenience library.
COMPILER_TEST_CPPFLAGS = $(compiler_libbyocc_la_CPPFLAGS)
COMPILER_TEST_LDADD = compiler/libbyocc.la $(CHECK_LIBS)
noinst_HEADERS += tests/unit/compiler_fixture.h
check_PROGRAMS += tests/unit/test_lexer tests/unit/test_parser tests/unit/test_resolve
TESTS += tests/unit/test_lexer tests/unit/test_parser tests/unit/test_resolve
tests_unit_test_lexer_SOURCES = tests/unit/test_lexer.c
tests_unit_test_lexer_CPPFLAGS = $(COMPILER_TEST_CPPFLAGS)
tests_unit_test_lexer_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_lexer_LDADD = $(COMPILER_TEST_LDADD)
tests_unit_test_parser_SOURCES = tests/unit/test_parser.c
tests_unit_test_parser_CPPFLAGS = $(COMPILER_TEST_CPPFLAGS)
tests_unit_test_parser_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_parser_LDADD = $(COMPILER_TEST_LDADD)
tests_unit_test_resolve_SOURCES = tests/unit/test_resolve.c
tests_unit_test_resolve_CPPFLAGS = $(COMPILER_TEST_CPPFLAGS)
tests_unit_test_resolve_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_resolve_LDADD = $(COMPILER_TEST_LDADD)

# The shared real models (../shared/models), when present.
AM_TESTS_ENVIRONMENT += BYOC_SHARED_MODELS='$(abs_top_srcdir)/../shared/models'; \
	export BYOC_SHARED_MODELS;
check_PROGRAMS += tests/models/relay_models
TESTS += tests/models/relay_models
tests_models_relay_models_SOURCES = tests/models/relay_models.c
tests_models_relay_models_LDADD = runtime/libbyoc.la

# Issue 16: target selection (explain -t, the default device, matches'
# lists, a plugin loaded twice), fusion settings at run time, cost-table
# fallbacks and --strict, references that stay in the repository.
# libdefdev is a plugin that only sets the default device; it is built for
# select.sh alone (check_LTLIBRARIES is first set in tests/plugin/local.mk,
# included after this file).
EXTRA_LTLIBRARIES = tests/cli/libdefdev.la
tests_cli_libdefdev_la_SOURCES = tests/cli/defdev.c
tests_cli_libdefdev_la_LDFLAGS = -module -avoid-version -rpath /nowhere
tests_cli_libdefdev_la_LIBADD = runtime/libbyoc.la
CLEANFILES += tests/cli/libdefdev.la
tests/cli/select.log: tests/cli/libdefdev.la
TESTS += tests/cli/select.sh tests/cli/fusion_options.sh tests/cli/cost_table.sh \
	tests/cli/repo_refs.sh
EXTRA_DIST += tests/cli/select.sh tests/cli/fusion_options.sh tests/cli/cost_table.sh \
	tests/cli/repo_refs.sh tests/cli/defdev.c tests/cli/explain_cpu_conv.golden \
	tests/cli/partition_max_nodes.golden
