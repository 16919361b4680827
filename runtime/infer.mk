# Type inference: see runtime/infer.c.
