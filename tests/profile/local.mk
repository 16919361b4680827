# byoc cost --from-ort-profile: hand-written profiles and, with node and
# onnxruntime-node, real ones of the tests' convnet and collage_mobilenet.
TESTS += tests/profile/profile.sh
EXTRA_DIST += tests/profile/profile.sh tests/profile/ort_profile.js \
	tests/profile/make_models.py
