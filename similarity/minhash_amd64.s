#include "textflag.h"

// func minHashAVX2(sig *Signature, xs []uint32, mul, add *[NumHashes]uint32)
//
// For each x of xs and each of the 128 hash functions: sig[i] = min(sig[i], mul[i]*x + add[i]),
// eight functions a YMM register. The signature goes in two halves of 64, each kept in Y0-Y7 for the
// whole of xs.
TEXT ·minHashAVX2(SB), NOSPLIT, $0-48
	MOVQ sig+0(FP), DI
	MOVQ xs_base+8(FP), SI
	MOVQ xs_len+16(FP), CX
	MOVQ mul+32(FP), R8
	MOVQ add+40(FP), R9
	MOVQ $2, R10 // halves

half:
	VMOVDQU 0(DI), Y0
	VMOVDQU 32(DI), Y1
	VMOVDQU 64(DI), Y2
	VMOVDQU 96(DI), Y3
	VMOVDQU 128(DI), Y4
	VMOVDQU 160(DI), Y5
	VMOVDQU 192(DI), Y6
	VMOVDQU 224(DI), Y7
	MOVQ SI, R11
	MOVQ CX, R12

loop:
	TESTQ R12, R12
	JZ   done
	VPBROADCASTD (R11), Y8

#define STEP(off, reg) \
	VPMULLD off(R8), Y8, Y9 \
	VPADDD  off(R9), Y9, Y9 \
	VPMINUD Y9, reg, reg

	STEP(0, Y0)
	STEP(32, Y1)
	STEP(64, Y2)
	STEP(96, Y3)
	STEP(128, Y4)
	STEP(160, Y5)
	STEP(192, Y6)
	STEP(224, Y7)

	ADDQ $4, R11
	DECQ R12
	JMP  loop

done:
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VMOVDQU Y4, 128(DI)
	VMOVDQU Y5, 160(DI)
	VMOVDQU Y6, 192(DI)
	VMOVDQU Y7, 224(DI)
	ADDQ $256, DI
	ADDQ $256, R8
	ADDQ $256, R9
	DECQ R10
	JNZ  half
	VZEROUPPER
	RET
