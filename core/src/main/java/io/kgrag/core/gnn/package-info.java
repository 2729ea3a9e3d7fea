/**
 * What kgrag's GNN trainers share (SG-RAG's dominance GNN, STEM's Triple-GNN): DJL's PyTorch engine and device
 * lookup, the device setting's validation, and the bias-corrected Adam with its divergence helpers ({@link
 * io.kgrag.core.gnn.TorchSupport}); Adam's moments with the roll-back after a divergence ({@link
 * io.kgrag.core.gnn.AdamState}); PyTorch's CPU threads set for one run and put back ({@link
 * io.kgrag.core.gnn.CpuThreads}); and the settings both configs' builders take, learning rate, batch size,
 * seed, device and threads ({@link io.kgrag.core.gnn.TrainerSettings}). Each model and its training loop stay
 * with its paper's package.
 */
package io.kgrag.core.gnn;
