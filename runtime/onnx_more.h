/* Converters of runtime/onnx_more.c, for the op table in onnx_ops.c.
 * Internal (ox_ prefix); each is an ox_convert_fn. */
#ifndef BX_ONNX_MORE_H
#define BX_ONNX_MORE_H

#include "onnx.h"

/* ---- activations and elementwise expansions ---- */
int ox_conv_elu(ox_cx *cx);             /* Elu, Selu */
int ox_conv_celu(ox_cx *cx);
int ox_conv_softplus(ox_cx *cx);
int ox_conv_softsign(ox_cx *cx);
int ox_conv_mish(ox_cx *cx);
int ox_conv_thresholded_relu(ox_cx *cx);
int ox_conv_shrink(ox_cx *cx);
int ox_conv_is_inf(ox_cx *cx);
int ox_conv_bit_shift(ox_cx *cx);
int ox_conv_bitwise(ox_cx *cx);         /* BitwiseAnd/Or/Xor/Not, by map->relay */

/* ---- normalisation and pooling ---- */
int ox_conv_group_norm(ox_cx *cx);
/* LayerNormalization beyond nn.layer_norm; onnx_ops.c's converter hands
 * such nodes here. */
int ox_conv_layer_norm_spelled(ox_cx *cx);
int ox_conv_mvn(ox_cx *cx);
int ox_conv_lp_norm(ox_cx *cx);
int ox_conv_lp_pool(ox_cx *cx);         /* LpPool, GlobalLpPool */
int ox_conv_max_unpool(ox_cx *cx);
int ox_conv_reduce_more(ox_cx *cx);     /* ReduceL1/L2/LogSum/LogSumExp/SumSquare */
int ox_conv_hardmax(ox_cx *cx);

/* ---- indexing, scans, creation ---- */
int ox_conv_cumsum(ox_cx *cx);
int ox_conv_trilu(ox_cx *cx);
int ox_conv_scatter_nd(ox_cx *cx);
int ox_conv_scatter(ox_cx *cx);
int ox_conv_one_hot(ox_cx *cx);
int ox_conv_eye_like(ox_cx *cx);
int ox_conv_reverse_sequence(ox_cx *cx);
int ox_conv_center_crop_pad(ox_cx *cx);
int ox_conv_window(ox_cx *cx);          /* HannWindow, HammingWindow, BlackmanWindow */

/* ---- recurrent layers, unrolled; attention ---- */
int ox_conv_rnn(ox_cx *cx);             /* RNN, GRU, LSTM */
int ox_conv_attention(ox_cx *cx);
int ox_conv_rotary_embedding(ox_cx *cx);
int ox_conv_einsum(ox_cx *cx);

#endif
