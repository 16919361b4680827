/* Converters for ONNX Runtime's contrib ops (com.microsoft and
 * com.microsoft.nchwc) and the newer default-domain ops they stand beside
 * (Gelu, RMSNormalization, ORT's SimplifiedLayerNormalization), defined in
 * onnx_contrib.c and listed in the one op table in onnx_ops.c.  Internal
 * (ox_ prefix). */
#ifndef BX_ONNX_CONTRIB_H
#define BX_ONNX_CONTRIB_H

#include "onnx.h"

/* default domain */
int ox_conv_gelu(ox_cx *cx);
int ox_conv_rms_norm(ox_cx *cx);

/* com.microsoft */
int ox_conv_ms_attention(ox_cx *cx);
int ox_conv_bias_add(ox_cx *cx);
int ox_conv_bias_gelu(ox_cx *cx);
int ox_conv_bias_softmax(ox_cx *cx);
int ox_conv_embed_layer_norm(ox_cx *cx);
int ox_conv_fast_gelu(ox_cx *cx);
int ox_conv_fused_conv(ox_cx *cx);
int ox_conv_fused_gemm(ox_cx *cx);
int ox_conv_fused_matmul(ox_cx *cx);
int ox_conv_multi_head_attention(ox_cx *cx);
int ox_conv_nhwc_conv(ox_cx *cx);
int ox_conv_nhwc_fused_conv(ox_cx *cx);
int ox_conv_quick_gelu(ox_cx *cx);
int ox_conv_range(ox_cx *cx);
int ox_conv_ms_rotary_embedding(ox_cx *cx);
int ox_conv_skip_layer_norm(ox_cx *cx);

/* com.microsoft.nchwc */
int ox_conv_nchwc_conv(ox_cx *cx);
int ox_conv_nchwc_global_pool(ox_cx *cx);
int ox_conv_nchwc_pool(ox_cx *cx);
int ox_conv_nchwc_reorder_input(ox_cx *cx);
int ox_conv_nchwc_reorder_output(ox_cx *cx);
int ox_conv_nchwc_upsample(ox_cx *cx);

#endif
