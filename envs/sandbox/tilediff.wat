;; The tiles where two pictures differ, for `hybridgym.sandbox.canvas.READ_CANVAS_JS` (a game page compares the
;; picture it reads with the one it sent last). 16 bytes at a time (SIMD): about 0.2 ms for an 800x600 picture
;; where a JavaScript loop over its pixels took 0.5-0.8 ms (3 ms on whack-a-mole's).
;;
;; diff(a, b, w, h, t, m): for the two w x h pictures of 32-bit pixels at a and b (in the module's memory), sets
;; m[(y / t) * cols + x / t] to 1 for each t x t tile with a pixel that differs (cols = ceil(w / t); the caller
;; clears m) and returns how many tiles it marked. A row's part of a tile already marked is not read again.
;;
;; Built into `canvas.TILE_DIFF_WASM` (base64) with WABT's wat2wasm from npm:
;;   npx --yes -p wabt@1.0.39 wat2wasm envs/sandbox/tilediff.wat -o /tmp/tilediff.wasm && base64 -w0 /tmp/tilediff.wasm
(module
  (memory (export "mem") 1)
  (func (export "diff") (param $a i32) (param $b i32) (param $w i32) (param $h i32) (param $t i32) (param $m i32) (result i32)
    (local $y i32) (local $tx i32) (local $cols i32) (local $row i32) (local $mrow i32) (local $mk i32)
    (local $p i32) (local $x1 i32) (local $n i32) (local $diff i32)
    (local.set $cols (i32.div_u (i32.sub (i32.add (local.get $w) (local.get $t)) (i32.const 1)) (local.get $t)))
    (block $ydone
      (loop $yloop
        (br_if $ydone (i32.ge_u (local.get $y) (local.get $h)))
        (local.set $row (i32.mul (i32.mul (local.get $y) (local.get $w)) (i32.const 4)))
        (local.set $mrow (i32.add (local.get $m) (i32.mul (i32.div_u (local.get $y) (local.get $t)) (local.get $cols))))
        (local.set $tx (i32.const 0))
        (block $txdone
          (loop $txloop
            (br_if $txdone (i32.ge_u (local.get $tx) (local.get $cols)))
            (local.set $mk (i32.add (local.get $mrow) (local.get $tx)))
            (if (i32.eqz (i32.load8_u (local.get $mk)))
              (then
                ;; bytes p .. x1 of the row: its part of this tile
                (local.set $p (i32.add (local.get $row) (i32.mul (i32.mul (local.get $tx) (local.get $t)) (i32.const 4))))
                (local.set $x1 (i32.mul (i32.add (local.get $tx) (i32.const 1)) (local.get $t)))
                (if (i32.gt_u (local.get $x1) (local.get $w)) (then (local.set $x1 (local.get $w))))
                (local.set $x1 (i32.add (local.get $row) (i32.mul (local.get $x1) (i32.const 4))))
                (local.set $diff (i32.const 0))
                (block $vdone
                  (loop $vloop
                    (br_if $vdone (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $x1)))
                    (if (v128.any_true (v128.xor (v128.load (i32.add (local.get $a) (local.get $p)))
                                                 (v128.load (i32.add (local.get $b) (local.get $p)))))
                      (then (local.set $diff (i32.const 1)) (br $vdone)))
                    (local.set $p (i32.add (local.get $p) (i32.const 16)))
                    (br $vloop)))
                (block $sdone
                  (loop $sloop
                    (br_if $sdone (i32.or (local.get $diff) (i32.ge_u (local.get $p) (local.get $x1))))
                    (if (i32.ne (i32.load (i32.add (local.get $a) (local.get $p))) (i32.load (i32.add (local.get $b) (local.get $p))))
                      (then (local.set $diff (i32.const 1))))
                    (local.set $p (i32.add (local.get $p) (i32.const 4)))
                    (br $sloop)))
                (if (local.get $diff)
                  (then (i32.store8 (local.get $mk) (i32.const 1)) (local.set $n (i32.add (local.get $n) (i32.const 1)))))))
            (local.set $tx (i32.add (local.get $tx) (i32.const 1)))
            (br $txloop)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $yloop)))
    (local.get $n)))
