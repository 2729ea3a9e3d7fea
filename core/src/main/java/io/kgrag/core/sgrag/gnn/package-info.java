/**
 * SG-RAG's dominance embeddings (§4.2, Appendix C): a one-layer GAT over each node's 1-hop star gives a
 * small non-negative vector o(v) ∈ R^D, and a query star can only match data nodes whose stored vector
 * dominates its own.
 *
 * <ul>
 *   <li>{@link io.kgrag.core.sgrag.gnn.DominanceModel}: the model in plain Java (no PyTorch at inference),
 *       serialisable; {@code project} once per node, {@code embedStar} for query stars, {@code
 *       starUpperBound} for data nodes. Its class comment proves why the bound covers every substructure
 *       of a star for any weights, so the index never loses a true match whatever training achieved;
 *   <li>{@link io.kgrag.core.sgrag.gnn.DominanceTrainer}: Algorithm 2 on DJL's PyTorch engine (CPU, or a
 *       GPU with the CUDA native jar), with {@link io.kgrag.core.sgrag.gnn.TrainerConfig} and {@link
 *       io.kgrag.core.sgrag.gnn.TrainingResult};
 *   <li>{@link io.kgrag.core.sgrag.gnn.StarSampler}: the (star, substructure) training pairs;
 *   <li>{@link io.kgrag.core.sgrag.gnn.DominanceMetrics}: violations and pruning power, measured with the
 *       Java forward the index uses.
 * </ul>
 *
 * <p>Using it from the index: train on a sample of stars (label embeddings of each node and its
 * neighbours), store {@code model.toBytes()}; for every data node v store {@code starUpperBound(project(v),
 * projections of all of v's neighbours)}; for a query node q compute {@code embedStar(project(q),
 * projections of q's query neighbours)} from the same label embeddings (looked up by label key, not
 * re-embedded) and keep the data nodes with {@code dominatedBy(o(q), UB(v))}. Training needs no PyTorch
 * on the executors: only the driver trains.
 */
package io.kgrag.core.sgrag.gnn;
