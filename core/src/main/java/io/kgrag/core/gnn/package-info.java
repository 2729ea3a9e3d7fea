/**
 * What kgrag's GNN trainers share (SG-RAG's dominance GNN, STEM's Triple-GNN): DJL's PyTorch engine and device
 * lookup, the device setting's validation, and the bias-corrected Adam with its divergence helpers ({@link
 * io.kgrag.core.gnn.TorchSupport}). Each model and its training loop stay with its paper's package.
 */
package io.kgrag.core.gnn;
